import type { CallToolResult } from '@toolhost/connection';
import type { ResourceContent } from '../client-features/read-resource-parts.js';
import type { HostResource } from '../host-resources.js';
import {
  capText,
  cleanLine as clean,
  contentResult,
  errorText,
  hostTool,
  listingTool,
  mediaItem,
  READ_ONLY_ANNOTATIONS as READ_ONLY,
  textResult as text,
  type HostProvidedTool,
} from './host-provided-tool.js';

/** Name of the host tool that lists the servers' resources (as in Gemini CLI). */
export const LIST_RESOURCES_TOOL_NAME = 'list_mcp_resources';
/** Name of the host tool that reads one resource (as in Gemini CLI). */
export const READ_RESOURCE_TOOL_NAME = 'read_mcp_resource';

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

/** The two resource tools, by name. */
export function createResourceTools(deps: ResourceToolsDeps, options: ResourceToolsOptions = {}): Map<string, HostProvidedTool> {
  const maxLength = options.maxLength ?? DEFAULT_RESOURCE_TOOL_MAX_LENGTH;
  const list = listingTool({
    name: LIST_RESOURCES_TOOL_NAME,
    description: 'Lists the resources the connected MCP servers offer, as `<server>:<uri> | <name> | <description>` lines.',
    kind: 'Resources',
    items: () => deps.list(),
    line: (resource) =>
      `- ${clean(resource.serverName)}:${clean(resource.uri)} | ${clean(resource.title ?? resource.name)} | ${clean(resource.description)}`,
  });
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
    return text(`Failed to read resource: ${errorText(error)}`, true);
  }
  return contentResult(
    contents.map(({ part }) =>
      part.type === 'text'
        ? { type: 'text', text: capText(part.text, maxLength, 'resource text') }
        : mediaItem(part.data, part.mimeType, maxLength),
    ),
  );
}
