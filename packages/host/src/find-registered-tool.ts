import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import type { ReadonlyRegistry, RegisteredTool } from '@toolhost/discovery';
import { getToolPresentation } from './client-features/index.js';
import type { HostToolDefinition } from './model-adapter.js';
import type { ResolvedServer } from './resolve-servers.js';
import type { FoundTool } from './run-tool-call.js';

/** A registry entry in the adapter-facing form. */
export function toToolDefinition(entry: RegisteredTool): HostToolDefinition {
  const { tool } = entry;
  const { icons } = getToolPresentation(tool);
  return {
    name: entry.registeredName,
    serverName: entry.serverName,
    originalName: entry.originalName,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.annotations ? { annotations: tool.annotations as Record<string, unknown> } : {}),
    ...(icons.length > 0 ? { icons } : {}),
  };
}

// Per registry entry (a new listing makes new entries), so the per-call path builds nothing twice.
const foundByEntry = new WeakMap<RegisteredTool, { readonly servers: readonly ResolvedServer[]; readonly found: FoundTool }>();

/**
 * Find a registered tool by the name the model used, with its server's timeout and what the
 * confirmation policy decides on (the tool exactly as listed, trust, the server's identity).
 * The answer is cached per registry entry and server list.
 */
export function findRegisteredTool(options: {
  readonly name: string;
  readonly tools: ReadonlyRegistry<RegisteredTool>;
  readonly servers: readonly ResolvedServer[];
}): FoundTool | undefined {
  const entry = options.tools.get(options.name);
  if (!entry) return undefined;
  const cached = foundByEntry.get(entry);
  if (cached?.servers === options.servers) return cached.found;
  const server = options.servers.find((candidate) => candidate.name === entry.serverName);
  if (!server) return undefined;
  const result: FoundTool = {
    definition: toToolDefinition(entry),
    timeoutMs: server.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS,
    subject: {
      serverName: entry.serverName,
      registeredName: entry.registeredName,
      tool: entry.tool,
      trust: server.config.trust === true,
      serverIdentity: `${server.transport.transport}:${server.transport.target}`,
    },
  };
  foundByEntry.set(entry, { servers: options.servers, found: result });
  return result;
}
