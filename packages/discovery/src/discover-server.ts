import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Client, RequestOptions, Prompt, Resource, ResourceTemplateType, StandardSchemaV1, Tool } from '@modelcontextprotocol/client';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { isModernRevision } from '@toolhost/connection';
import { DiscoveryError } from './discovery-error.js';
import { headerDeclarationProblem } from './header-declarations.js';
import { isToolEnabled, type ToolFilter } from './is-tool-enabled.js';
import {
  describeIssues,
  isRecord,
  judgeItems,
  LIST_ITEMS,
  type DefinitionLimits,
  type InvalidItem,
  type ListMethod,
} from './judge-list-items.js';
import { listAllPages, type ListPage } from './list-all-pages.js';
import { setAsideItems, type JudgedListResult } from './list-answer-filter.js';
import { listServerSkills, skillListingFailure, type ExcludedSkill, type SkillListingResult } from './skill-listing.js';

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
  /** Skills (the Skills extension, SEP-2640): entries only, no skill file is read at discovery. */
  skills: Skill[];
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
  /** Bounds of one list item (see `judgeItem`). @default DEFAULT_DEFINITION_LIMITS */
  definitionLimits?: DefinitionLimits | undefined;
  /** Which lists to read. @default all four */
  kinds?: readonly OfferingKind[] | undefined;
  /**
   * Told, per list, the `ttlMs` of its first page when the server sent one (MCP 2026-07-28 cache
   * hints): how long the list may be used before it must be read again.
   */
  onFreshness?: ((kind: OfferingKind, ttlMs: number) => void) | undefined;
  /**
   * Leave out tools whose `x-mcp-header` declarations are invalid (MCP 2026-07-28 on Streamable
   * HTTP; see {@link headerDeclarationProblem}). Tools whose definition is invalid (an `inputSchema`
   * that is `null` or not an object schema, no name...) are always left out; each listing of
   * tools reports the tools left out to `onExcludedTools` (an empty list when none were).
   */
  checkHeaderDeclarations?: boolean | undefined;
  /** Told, on every listing of tools, which tools were left out and why. */
  onExcludedTools?: ((excluded: ExcludedTool[]) => void) | undefined;
  /**
   * List the skills of a server that declares the Skills extension (`skills/list`, see
   * `listServerSkills`); otherwise, or without it, the `skills` kind is always empty. @default false
   */
  skills?: boolean | undefined;
  /** Told, on every listing of skills, which skills were left out and why. */
  onExcludedSkills?: ((excluded: ExcludedSkill[]) => void) | undefined;
}

/** A tool that discovery left out because the client could not call it correctly. */
export interface ExcludedTool {
  /** The tool's name on its server. */
  readonly name: string;
  /** What is wrong with its definition. */
  readonly reason: string;
}

/**
 * A short reason for a list answer the SDK rejected as a whole with its issues as JSON (`Invalid
 * result for tools/list: [...]`, from the MCP 2026-07-28 wire codec): the paths and messages of
 * the first issues (`tools[3].inputSchema.$schema: expected string, received number`), never the
 * raw dump. `undefined` for any other error.
 */
function describeRejectedList(error: unknown): string | undefined {
  if (!(error instanceof SdkError) || error.code !== SdkErrorCode.InvalidResult) return undefined;
  const json = /^Invalid result for [^:]*: (\[[\s\S]*\])\s*$/.exec(error.message)?.[1];
  if (json === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  const issues = parsed.filter(
    (issue): issue is StandardSchemaV1.Issue =>
      isRecord(issue) &&
      typeof issue['message'] === 'string' &&
      (issue['path'] === undefined ||
        (Array.isArray(issue['path']) && issue['path'].every((key) => typeof key === 'string' || typeof key === 'number'))),
  );
  return issues.length > 0 ? describeIssues(issues) : undefined;
}

/**
 * True for a MethodNotFound error, including one a 2026-07-28 HTTP server sends as HTTP 404 with a
 * JSON-RPC `-32601` body (the SDK client unwraps such bodies on HTTP 400 only).
 */
function isMethodNotFound(error: unknown): boolean {
  if (error instanceof ProtocolError) return error.code === ProtocolErrorCode.MethodNotFound;
  if (!(error instanceof SdkError) || error.code !== SdkErrorCode.ClientHttpNotImplemented) return false;
  const data: unknown = error.data;
  if (!isRecord(data) || data['status'] !== 404 || typeof data['text'] !== 'string' || data['text'].length > 65_536) return false;
  try {
    const body: unknown = JSON.parse(data['text']);
    return isRecord(body) && isRecord(body['error']) && body['error']['code'] === ProtocolErrorCode.MethodNotFound;
  } catch {
    return false;
  }
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
    if (isMethodNotFound(error)) return [];
    if (DiscoveryError.isInstance(error)) throw error;
    const mcpCode = error instanceof ProtocolError ? error.code : undefined;
    const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
    const rejected = describeRejectedList(error);
    throw new DiscoveryError({
      code: timedOut ? 'DISCOVERY_TIMEOUT' : 'LIST_FAILED',
      message:
        rejected === undefined
          ? `MCP server '${options.serverName}' failed to answer ${method}: ${error instanceof Error ? error.message : String(error)}`
          : `MCP server '${options.serverName}' sent a ${method} answer that the MCP SDK rejects as a whole, so none of it was loaded: ${rejected}`,
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
    limits: DefinitionLimits | undefined,
  ) => Promise<ListPage<ServerOfferings[K][number]> & { ttlMs?: number | undefined; invalid: InvalidItem[] }>;
}

/**
 * The result schema given to `client.request` for list methods: any object. The SDK's own result
 * schema parses the whole list at once, so one malformed tool failed the listing and disconnected
 * the server; the items are judged one by one instead ({@link judgeItems}). On MCP 2026-07-28 the
 * SDK's wire codec parses the list strictly before this schema is consulted: there the items are
 * judged on the transport, before the SDK sees them (`judgeListAnswers`).
 */
const ANY_OBJECT_RESULT: StandardSchemaV1<JudgedListResult> = {
  '~standard': {
    version: 1,
    vendor: 'toolhost',
    validate: (value) => (isRecord(value) ? { value } : { issues: [{ message: 'the result is not an object' }] }),
  },
};

/**
 * One page of a list method, its items judged one by one: those left out on the transport
 * ({@link setAsideItems}) first, then any the page still holds that are invalid.
 */
async function judgedPage<T>(
  client: Client,
  method: ListMethod,
  params: { cursor?: string },
  request: RequestOptions,
  limits: DefinitionLimits | undefined,
): Promise<ListPage<T> & { ttlMs?: number | undefined; invalid: InvalidItem[] }> {
  const page = await client.request({ method, params }, ANY_OBJECT_RESULT, request);
  const nextCursor = page['nextCursor'];
  if (nextCursor !== undefined && nextCursor !== null && typeof nextCursor !== 'string')
    throw new Error('the result has a nextCursor that is not a string');
  const shape = LIST_ITEMS[method];
  const judged = judgeItems<T>(page[shape.key], shape, limits);
  return {
    items: judged.items,
    invalid: [...setAsideItems(page), ...judged.invalid],
    nextCursor: nextCursor ?? undefined,
    ttlMs: ttlOf(page),
  };
}

const LIST_READERS: { [K in Exclude<OfferingKind, 'skills'>]: ListReader<K> } = {
  tools: {
    capability: 'tools',
    method: 'tools/list',
    page: (client, params, request, limits) => judgedPage<Tool>(client, 'tools/list', params, request, limits),
  },
  prompts: {
    capability: 'prompts',
    method: 'prompts/list',
    page: (client, params, request, limits) => judgedPage<Prompt>(client, 'prompts/list', params, request, limits),
  },
  resources: {
    capability: 'resources',
    method: 'resources/list',
    page: (client, params, request, limits) => judgedPage<Resource>(client, 'resources/list', params, request, limits),
  },
  resourceTemplates: {
    capability: 'resources',
    method: 'resources/templates/list',
    page: (client, params, request, limits) =>
      judgedPage<ResourceTemplateType>(client, 'resources/templates/list', params, request, limits),
  },
};

/** A page's `ttlMs` cache hint, when it is a finite number (server-sent, so checked). */
function ttlOf(page: object): number | undefined {
  const ttl = (page as { ttlMs?: unknown }).ttlMs;
  return typeof ttl === 'number' && Number.isFinite(ttl) ? ttl : undefined;
}

const ALL_KINDS: readonly OfferingKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates', 'skills'];

/** The skills of a server (see `listServerSkills`), or none when skills are not asked for. */
async function readSkills(options: DiscoverServerOptions, request: RequestOptions): Promise<SkillListingResult> {
  if (!options.skills) return { skills: [], excluded: [] };
  try {
    return await listServerSkills(options.client, request);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return isMethodNotFound(error) ? { skills: [], excluded: [] } : skillListingFailure(error);
  }
}

/**
 * List every page of the tools, prompts, resources and resource templates of a connected
 * server, and with `skills` its skills (entries only). A list is only requested when the server
 * declares the matching capability (the extension, for skills), and a MethodNotFound answer
 * counts as "none". Tools are filtered by the entry's tool filter.
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
    if (kind === 'skills') {
      const listing = await readSkills(options, request);
      if (listing.ttlMs !== undefined) options.onFreshness?.('skills', listing.ttlMs);
      options.onExcludedSkills?.(listing.excluded);
      result.skills = listing.skills;
      return;
    }
    const reader = LIST_READERS[kind as Exclude<K, 'skills'>] as ListReader<K>;
    const invalid: InvalidItem[] = [];
    const items = capabilities[reader.capability]
      ? await readList(options, reader.method, async (cursor) => {
          const page = await reader.page(client, cursor === undefined ? {} : { cursor }, request, options.definitionLimits);
          if (cursor === undefined && page.ttlMs !== undefined) options.onFreshness?.(kind, page.ttlMs);
          invalid.push(...page.invalid);
          return page;
        })
      : [];
    result[kind] = (kind === 'tools' ? usableTools(options, items as Tool[], invalid) : items) as ServerOfferings[K];
  };
  await Promise.all([...new Set(options.kinds ?? ALL_KINDS)].map((kind) => readKind(kind)));
  return result;
}

/**
 * The tools of a listing that pass the entry's filter and, where asked, the header-declaration
 * rules. Reports to `onExcludedTools` the invalid definitions (that the filter would not have
 * dropped anyway) and the tools left out for their header declarations.
 */
function usableTools(options: DiscoverServerOptions, tools: Tool[], invalid: readonly InvalidItem[]): Tool[] {
  const enabled = tools.filter((tool) => isToolEnabled(tool.name, options.filter));
  const excluded: ExcludedTool[] = invalid
    .filter((item) => !item.named || isToolEnabled(item.name, options.filter))
    .map(({ name, reason }) => ({ name, reason }));
  if (!options.checkHeaderDeclarations) {
    options.onExcludedTools?.(excluded);
    return enabled;
  }
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
