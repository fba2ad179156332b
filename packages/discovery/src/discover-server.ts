import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Client, RequestOptions, Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import { DiscoveryError } from './discovery-error.js';
import { headerDeclarationProblem } from './header-declarations.js';
import { isToolEnabled, type ToolFilter } from './is-tool-enabled.js';
import { listAllPages, type ListPage } from './list-all-pages.js';
import { isModernRevision } from './version-negotiation.js';

/** Everything one server offers, after the tool filter. */
export interface ServerOfferings {
  /** Tools that passed `includeTools` / `excludeTools`, in the server's order. */
  tools: Tool[];
  /** Prompts. */
  prompts: Prompt[];
  /** Resources. */
  resources: Resource[];
  /** Resource templates. */
  resourceTemplates: ResourceTemplateType[];
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
  /**
   * Told, per list, the `ttlMs` of its first page when the server sent one (MCP 2026-07-28 cache
   * hints): how long the list may be used before it must be read again.
   */
  onFreshness?: ((kind: OfferingKind, ttlMs: number) => void) | undefined;
  /**
   * Leave out tools whose `x-mcp-header` declarations are invalid (MCP 2026-07-28 on Streamable
   * HTTP; see {@link headerDeclarationProblem}). Each listing of tools reports the tools left out
   * to `onExcludedTools` (an empty list when none were).
   */
  checkHeaderDeclarations?: boolean | undefined;
  /** Told, on every listing of tools, which tools were left out and why. */
  onExcludedTools?: ((excluded: ExcludedTool[]) => void) | undefined;
}

/** A tool that discovery left out because the client could not call it correctly. */
export interface ExcludedTool {
  /** The tool's name on its server. */
  readonly name: string;
  /** What is wrong with its definition. */
  readonly reason: string;
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
    if (error instanceof ProtocolError && error.code === ProtocolErrorCode.MethodNotFound) return [];
    if (DiscoveryError.isInstance(error)) throw error;
    const mcpCode = error instanceof ProtocolError ? error.code : undefined;
    const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
    throw new DiscoveryError({
      code: timedOut ? 'DISCOVERY_TIMEOUT' : 'LIST_FAILED',
      message: `MCP server '${options.serverName}' failed to answer ${method}: ${error instanceof Error ? error.message : String(error)}`,
      serverName: options.serverName,
      method,
      mcpCode,
      cause: error,
    });
  }
}

/**
 * How to read one kind of list: the capability it needs, its method, and one page. Pages are
 * requested one by one (the SDK's `listTools()` without a cursor walks every page itself, with
 * its own cap and no repeated-cursor check), so a looping or endless server stops with a typed error.
 */
interface ListReader<K extends OfferingKind> {
  capability: 'tools' | 'prompts' | 'resources';
  method: string;
  page: (
    client: Client,
    params: { cursor?: string },
    request: RequestOptions,
  ) => Promise<ListPage<ServerOfferings[K][number]> & { ttlMs?: number | undefined }>;
}

const LIST_READERS: { [K in OfferingKind]: ListReader<K> } = {
  tools: {
    capability: 'tools',
    method: 'tools/list',
    page: async (client, params, request) => {
      const page = await client.request({ method: 'tools/list', params }, request);
      return { items: page.tools, nextCursor: page.nextCursor, ttlMs: ttlOf(page) };
    },
  },
  prompts: {
    capability: 'prompts',
    method: 'prompts/list',
    page: async (client, params, request) => {
      const page = await client.request({ method: 'prompts/list', params }, request);
      return { items: page.prompts, nextCursor: page.nextCursor, ttlMs: ttlOf(page) };
    },
  },
  resources: {
    capability: 'resources',
    method: 'resources/list',
    page: async (client, params, request) => {
      const page = await client.request({ method: 'resources/list', params }, request);
      return { items: page.resources, nextCursor: page.nextCursor, ttlMs: ttlOf(page) };
    },
  },
  resourceTemplates: {
    capability: 'resources',
    method: 'resources/templates/list',
    page: async (client, params, request) => {
      const page = await client.request({ method: 'resources/templates/list', params }, request);
      return { items: page.resourceTemplates, nextCursor: page.nextCursor, ttlMs: ttlOf(page) };
    },
  },
};

/** A page's `ttlMs` cache hint, when it is a finite number (server-sent, so checked). */
function ttlOf(page: object): number | undefined {
  const ttl = (page as { ttlMs?: unknown }).ttlMs;
  return typeof ttl === 'number' && Number.isFinite(ttl) ? ttl : undefined;
}

const ALL_KINDS: readonly OfferingKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];

/**
 * List every page of the tools, prompts, resources and resource templates of a connected
 * server. A list is only requested when the server declares the matching capability, and a
 * MethodNotFound answer counts as "none". Tools are filtered by the entry's tool filter.
 */
export async function discoverServer(options: DiscoverServerOptions): Promise<Partial<ServerOfferings>> {
  const { client, signal, timeout } = options;
  const capabilities = client.getServerCapabilities() ?? {};
  // A child signal per request: the SDK adds an abort listener per request to the signal it gets,
  // and a long pagination would otherwise pile them up on one signal.
  const request: RequestOptions = {
    get signal() {
      return signal ? AbortSignal.any([signal]) : undefined;
    },
    timeout,
  };
  const result: Partial<ServerOfferings> = {};
  const readKind = async <K extends OfferingKind>(kind: K): Promise<void> => {
    const reader: ListReader<K> = LIST_READERS[kind];
    const items = capabilities[reader.capability]
      ? await readList(options, reader.method, async (cursor) => {
          const page = await reader.page(client, cursor === undefined ? {} : { cursor }, request);
          if (cursor === undefined && page.ttlMs !== undefined) options.onFreshness?.(kind, page.ttlMs);
          return page;
        })
      : [];
    result[kind] = (kind === 'tools' ? usableTools(options, items as Tool[]) : items) as ServerOfferings[K];
  };
  await Promise.all([...new Set(options.kinds ?? ALL_KINDS)].map((kind) => readKind(kind)));
  return result;
}

/** The tools of a listing that pass the entry's filter and, where asked, the header-declaration rules. */
function usableTools(options: DiscoverServerOptions, tools: Tool[]): Tool[] {
  const enabled = tools.filter((tool) => isToolEnabled(tool.name, options.filter));
  if (!options.checkHeaderDeclarations) return enabled;
  const excluded: ExcludedTool[] = [];
  const usable = enabled.filter((tool) => {
    const reason = headerDeclarationProblem(tool.inputSchema);
    if (reason !== undefined) excluded.push({ name: tool.name, reason });
    return reason === undefined;
  });
  options.onExcludedTools?.(excluded);
  return usable;
}

/** True when a session must apply the `x-mcp-header` rules: MCP 2026-07-28 or later, over HTTP. */
export function appliesHeaderRules(transportType: string | undefined, protocolVersion: string | undefined): boolean {
  return transportType !== undefined && transportType !== 'stdio' && isModernRevision(protocolVersion);
}
