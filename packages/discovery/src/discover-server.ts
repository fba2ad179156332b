import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { DiscoveryError, DiscoveryErrorCode } from './discovery-error.js';
import { isToolEnabled, type ToolFilter } from './is-tool-enabled.js';
import { listAllPages, type ListPage } from './list-all-pages.js';

/** Everything one server offers, after the tool filter. */
export interface ServerOfferings {
  /** Tools that passed `includeTools` / `excludeTools`, in the server's order. */
  tools: Tool[];
  /** Prompts. */
  prompts: Prompt[];
  /** Resources. */
  resources: Resource[];
  /** Resource templates. */
  resourceTemplates: ResourceTemplate[];
}

/** Which lists to read. */
export type OfferingKind = keyof ServerOfferings;

/** Options of {@link discoverServer}. */
export interface DiscoverServerOptions {
  /** Server name, for errors. */
  serverName: string;
  /** A connected client. */
  client: Client;
  /** The tool filter of the server entry. */
  filter: ToolFilter;
  /** Aborts every list request. */
  signal?: AbortSignal | undefined;
  /** Per-request timeout in milliseconds. */
  timeout: number;
  /** Page limit of each list. */
  maxPages?: number | undefined;
  /** Which lists to read. @default all four */
  kinds?: readonly OfferingKind[] | undefined;
}

/** Read one list, treating MethodNotFound as an empty list. */
async function readList<T>(
  options: DiscoverServerOptions,
  method: string,
  fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>,
): Promise<T[]> {
  try {
    return await listAllPages({ serverName: options.serverName, method, maxPages: options.maxPages, fetchPage });
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.MethodNotFound) return [];
    if (DiscoveryError.isInstance(error)) throw error;
    const mcpCode = error instanceof McpError ? error.code : undefined;
    const timedOut = mcpCode === ErrorCode.RequestTimeout;
    throw new DiscoveryError(
      `MCP server '${options.serverName}' failed to answer ${method}: ${error instanceof Error ? error.message : String(error)}`,
      {
        code: timedOut ? DiscoveryErrorCode.DISCOVERY_TIMEOUT : DiscoveryErrorCode.LIST_FAILED,
        serverName: options.serverName,
        method,
        mcpCode,
        cause: error,
      },
    );
  }
}

/**
 * List every page of the tools, prompts, resources and resource templates of a connected
 * server. A list is only requested when the server declares the matching capability, and a
 * MethodNotFound answer counts as "none". Tools are filtered by the entry's tool filter.
 */
export async function discoverServer(options: DiscoverServerOptions): Promise<Partial<ServerOfferings>> {
  const { client, signal, timeout } = options;
  const capabilities = client.getServerCapabilities() ?? {};
  const kinds = new Set<OfferingKind>(options.kinds ?? ['tools', 'prompts', 'resources', 'resourceTemplates']);
  // A child signal per request: the SDK adds an abort listener per request to the signal it gets,
  // and a long pagination would otherwise pile them up on one signal.
  const request = {
    get signal() {
      return signal ? AbortSignal.any([signal]) : undefined;
    },
    timeout,
  };
  const result: Partial<ServerOfferings> = {};
  const jobs: Promise<void>[] = [];
  if (kinds.has('tools')) {
    jobs.push(
      (capabilities.tools
        ? readList(options, 'tools/list', async (cursor) => {
            const page = await client.listTools(cursor === undefined ? {} : { cursor }, request);
            return { items: page.tools, nextCursor: page.nextCursor };
          })
        : Promise.resolve([])
      ).then((tools) => {
        result.tools = tools.filter((tool) => isToolEnabled(tool.name, options.filter));
      }),
    );
  }
  if (kinds.has('prompts')) {
    jobs.push(
      (capabilities.prompts
        ? readList(options, 'prompts/list', async (cursor) => {
            const page = await client.listPrompts(cursor === undefined ? {} : { cursor }, request);
            return { items: page.prompts, nextCursor: page.nextCursor };
          })
        : Promise.resolve([])
      ).then((prompts) => {
        result.prompts = prompts;
      }),
    );
  }
  if (kinds.has('resources')) {
    jobs.push(
      (capabilities.resources
        ? readList(options, 'resources/list', async (cursor) => {
            const page = await client.listResources(cursor === undefined ? {} : { cursor }, request);
            return { items: page.resources, nextCursor: page.nextCursor };
          })
        : Promise.resolve([])
      ).then((resources) => {
        result.resources = resources;
      }),
    );
  }
  if (kinds.has('resourceTemplates')) {
    jobs.push(
      (capabilities.resources
        ? readList(options, 'resources/templates/list', async (cursor) => {
            const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, request);
            return { items: page.resourceTemplates, nextCursor: page.nextCursor };
          })
        : Promise.resolve([])
      ).then((templates) => {
        result.resourceTemplates = templates;
      }),
    );
  }
  await Promise.all(jobs);
  return result;
}
