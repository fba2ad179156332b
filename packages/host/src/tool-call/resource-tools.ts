import type { CallToolResult, Tool } from '@modelcontextprotocol/client';
import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { escapeControlText, type HostToolDefinition } from '@toolhost/contract';
import type { ResourceContent } from '../client-features/index.js';
import type { HostResource } from '../host-resources.js';
import type { CallableTool } from './callable-tool.js';

/** Name of the host tool that lists the servers' resources (as in Gemini CLI). */
export const LIST_RESOURCES_TOOL_NAME = 'list_mcp_resources';
/** Name of the host tool that reads one resource (as in Gemini CLI). */
export const READ_RESOURCE_TOOL_NAME = 'read_mcp_resource';
/** The `serverName` of the host's own tools in their {@link HostToolDefinition}. */
export const HOST_TOOLS_SERVER_NAME = 'toolhost';

/** Default cap of one text item (and of one image or audio item's base64) of a resource read by the model: Qwen Code's per-part budget. */
export const DEFAULT_RESOURCE_TOOL_MAX_LENGTH = 500_000;

/** Options of the `resourceTools` host option. */
export interface ResourceToolsOptions {
  /**
   * Longest text item the model gets from `read_mcp_resource`, in characters, and longest
   * image or audio item, in base64 characters; longer text is cut with a visible marker, a
   * larger image or audio item is replaced by a note. @default 500000
   */
  readonly maxLength?: number;
}

/** What the resource tools need from the host. */
export interface ResourceToolsDeps {
  /** The resources the connected servers list. */
  list(): HostResource[];
  /** `resources/read` on a server. */
  read(serverName: string, uri: string, signal: AbortSignal | undefined): Promise<ResourceContent[]>;
}

/** A host-provided tool: a callable whose calls the host answers itself. */
export interface HostProvidedTool extends CallableTool {
  /** Answer one call (`toolCallId`: the call's id, for a confirmation the tool asks itself). */
  readonly run: (args: Readonly<Record<string, unknown>>, signal: AbortSignal | undefined, toolCallId?: string) => Promise<CallToolResult>;
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The two resource tools, by name. */
export function createResourceTools(deps: ResourceToolsDeps, options: ResourceToolsOptions = {}): Map<string, HostProvidedTool> {
  const maxLength = options.maxLength ?? DEFAULT_RESOURCE_TOOL_MAX_LENGTH;
  const list = hostTool(
    {
      name: LIST_RESOURCES_TOOL_NAME,
      description: 'Lists the resources the connected MCP servers offer, as `<server>:<uri> | <name> | <description>` lines.',
      inputSchema: {
        type: 'object',
        properties: { serverName: { type: 'string', description: 'Only the resources of this MCP server.' } },
      },
      annotations: { title: 'List MCP resources', ...READ_ONLY },
    },
    (args) => Promise.resolve(text(listResources(deps.list(), typeof args.serverName === 'string' ? args.serverName : undefined))),
  );
  const read = hostTool(
    {
      name: READ_RESOURCE_TOOL_NAME,
      description: 'Reads one MCP resource. `uri` is `<server>:<uri>` as list_mcp_resources shows it, or the plain resource URI.',
      inputSchema: {
        type: 'object',
        properties: { uri: { type: 'string', description: 'The resource: `<server>:<uri>` or its URI.' } },
        required: ['uri'],
      },
      annotations: { title: 'Read an MCP resource', ...READ_ONLY },
    },
    (args, signal) => readResource(deps, String(args.uri), maxLength, signal),
  );
  return new Map([
    [list.definition.name, list],
    [read.definition.name, read],
  ]);
}

function hostTool(listed: Tool, run: HostProvidedTool['run']): HostProvidedTool {
  const definition: HostToolDefinition = {
    name: listed.name,
    serverName: HOST_TOOLS_SERVER_NAME,
    originalName: listed.name,
    description: listed.description ?? '',
    inputSchema: listed.inputSchema as Record<string, unknown>,
    annotations: listed.annotations as Record<string, unknown>,
  };
  return {
    definition,
    listed,
    callDefinition: listed,
    timeoutMs: DEFAULT_MCP_TIMEOUT_MS,
    // Read-only requests the servers declared they serve: never asked about (a host policy still decides first).
    trust: true,
    serverIdentity: `host:${HOST_TOOLS_SERVER_NAME}`,
    remote: false,
    // Answered in-process, like a local server: per-call HTTP headers are refused as for stdio.
    transportKind: 'stdio',
    run,
  };
}

function text(value: string, isError = false): CallToolResult {
  return { content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) };
}

/** Server-written text in one line of the listing. */
function clean(value: string | undefined): string {
  return escapeControlText(value ?? '', { maxLength: 500 });
}

function listResources(resources: HostResource[], serverName: string | undefined): string {
  const shown = serverName === undefined ? resources : resources.filter((resource) => resource.serverName === serverName);
  if (shown.length === 0)
    return serverName === undefined ? 'No MCP resources found.' : `No resources found for server: ${clean(serverName)}`;
  const lines = shown.map(
    (resource) =>
      `- ${clean(resource.serverName)}:${clean(resource.uri)} | ${clean(resource.title ?? resource.name)} | ${clean(resource.description)}`,
  );
  return `Available MCP Resources:\n${lines.join('\n')}`;
}

/** `<server>:<uri>` (split at the first `:`) among the known resources, else a known resource with this URI. */
function findResource(resources: HostResource[], reference: string): HostResource | undefined {
  const colon = reference.indexOf(':');
  if (colon > 0) {
    const server = reference.slice(0, colon);
    const uri = reference.slice(colon + 1);
    const found = resources.find((resource) => resource.serverName === server && resource.uri === uri);
    if (found) return found;
  }
  return resources.find((resource) => resource.uri === reference);
}

async function readResource(
  deps: ResourceToolsDeps,
  reference: string,
  maxLength: number,
  signal: AbortSignal | undefined,
): Promise<CallToolResult> {
  const resource = findResource(deps.list(), reference);
  if (!resource)
    return text(`Resource not found for URI: ${clean(reference)}. Call ${LIST_RESOURCES_TOOL_NAME} to see the resources.`, true);
  let contents: ResourceContent[];
  try {
    contents = await deps.read(resource.serverName, resource.uri, signal);
  } catch (error) {
    return text(`Failed to read resource: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  const content: CallToolResult['content'] = contents.map(({ part, mimeType }) => {
    if (part.type === 'text') {
      if (part.text.length <= maxLength) return { type: 'text', text: part.text };
      return {
        type: 'text',
        text: `${part.text.slice(0, maxLength)}… [resource text truncated by toolhost: ${part.text.length - maxLength} characters left out]`,
      };
    }
    const kind = part.mimeType.startsWith('image/') ? 'image' : part.mimeType.startsWith('audio/') ? 'audio' : undefined;
    if (kind && part.data.length <= maxLength) return { type: kind, data: part.data, mimeType: part.mimeType };
    const bytes = Math.floor((part.data.length * 3) / 4);
    return { type: 'text', text: `[Binary Data (${clean(mimeType ?? part.mimeType)}), ${bytes} bytes, not included]` };
  });
  return { content: content.length > 0 ? content : [{ type: 'text', text: '' }] };
}
