import type { CallToolResult, Tool } from '@toolhost/connection';
import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { escapeControlText, stripTagCharacters, type HostToolDefinition } from '@toolhost/contract';
import type { RegisteredTool } from '@toolhost/discovery';
import { getToolPresentation } from '../client-features/tool-presentation.js';
import type { ResolvedServer } from '../resolve-servers.js';

/** A registered tool with everything a call needs, built once per registry entry. */
export interface CallableTool {
  /** The tool as the adapter and the UI see it. */
  readonly definition: HostToolDefinition;
  /** The tool exactly as the server listed it (what approvals are pinned to). */
  readonly listed: Tool;
  /**
   * The listed tool without its `outputSchema`, passed to the SDK's `callTool` as `toolDefinition`:
   * the SDK then mirrors `Mcp-Param-*` headers from the input schema but does not reject a result
   * whose structured content misses the output schema (the host checks that leniently instead,
   * the failure of gemini-cli#21053).
   */
  readonly callDefinition: Tool;
  /** The server's request timeout. */
  readonly timeoutMs: number;
  /** The server entry's `trust`. */
  readonly trust: boolean;
  /** The server's transport and target, so an approval does not carry over to another server of the same name. */
  readonly serverIdentity: string;
  /** True for HTTP and SSE servers (OAuth step-up applies). */
  readonly remote: boolean;
  /** For a tool the host provides itself (`list_mcp_resources`...): answers the call instead of a server. */
  readonly run?: (args: Readonly<Record<string, unknown>>, signal: AbortSignal | undefined, toolCallId?: string) => Promise<CallToolResult>;
  /** The server's transport (per-call headers need `http`). */
  readonly transportKind: ResolvedServer['transport']['transport'];
}

/** Longest tool description given to the model, in characters; longer ones are cut with a visible marker. */
export const MAX_TOOL_DESCRIPTION_LENGTH = 8192;

/**
 * A server's tool description as the model gets it: Unicode tag characters (invisible text a model
 * still reads) removed, control, BiDi and zero-width characters written as `\uXXXX` (line feeds and
 * tabs kept), and cut to {@link MAX_TOOL_DESCRIPTION_LENGTH} characters with a visible marker.
 */
export function modelToolDescription(description: string): string {
  const clean = escapeControlText(stripTagCharacters(description), { multiline: true });
  if (clean.length <= MAX_TOOL_DESCRIPTION_LENGTH) return clean;
  const kept = escapeControlText(clean, { maxLength: MAX_TOOL_DESCRIPTION_LENGTH, multiline: true }).slice(0, -1);
  return `${kept}… [description truncated by toolhost: ${clean.length - kept.length} characters left out]`;
}

/** A registry entry in the adapter-facing form. */
export function toToolDefinition(entry: RegisteredTool): HostToolDefinition {
  const { tool } = entry;
  const { icons } = getToolPresentation(tool);
  return {
    name: entry.registeredName,
    serverName: entry.serverName,
    originalName: entry.originalName,
    description: modelToolDescription(tool.description ?? ''),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.title ? { title: escapeControlText(stripTagCharacters(tool.title), { maxLength: 200 }) } : {}),
    ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
    ...(icons.length > 0 ? { icons } : {}),
  };
}

// Per registry entry (a new listing makes new entries), so the per-call path builds nothing.
const callableByEntry = new WeakMap<RegisteredTool, CallableTool>();

/** The {@link CallableTool} of a registry entry, or undefined when its server is not configured. */
export function toCallableTool(entry: RegisteredTool, servers: ReadonlyMap<string, ResolvedServer>): CallableTool | undefined {
  const cached = callableByEntry.get(entry);
  if (cached) return cached;
  const server = servers.get(entry.serverName);
  if (!server) return undefined;
  const callable: CallableTool = {
    definition: toToolDefinition(entry),
    listed: entry.tool,
    callDefinition: withoutOutputSchema(entry.tool),
    timeoutMs: server.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS,
    trust: server.config.trust === true,
    serverIdentity: `${server.transport.transport}:${server.transport.target}`,
    remote: server.transport.transport !== 'stdio',
    transportKind: server.transport.transport,
  };
  callableByEntry.set(entry, callable);
  return callable;
}

function withoutOutputSchema(tool: Tool): Tool {
  if (tool.outputSchema === undefined) return tool;
  const { outputSchema: _unused, ...rest } = tool;
  return rest;
}
