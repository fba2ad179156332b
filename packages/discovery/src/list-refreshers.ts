import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { CoalescedRunner } from './coalesced-runner.js';
import { appliesHeaderRules, discoverServer, type OfferingKind, type ServerOfferings } from './discover-server.js';
import type { ListKind, ServerSession } from './server-session.js';
import { McpServerStatus } from './server-status.js';
import type { ServerState } from './server-state.js';
import type { DefinitionLimits } from './judge-list-items.js';

/** Which offerings a `list_changed` notification refreshes. */
const LIST_KINDS: Record<ListKind, OfferingKind[]> = {
  tools: ['tools'],
  prompts: ['prompts'],
  // Skills are resources: a server announces a changed skill list with resources/list_changed.
  resources: ['resources', 'resourceTemplates', 'skills'],
};

/** Options of {@link startListRefreshers}. */
export interface StartListRefreshersOptions {
  /** The connected server. */
  state: ServerState;
  /** Its live session. */
  session: ServerSession;
  /** `state.generation` of that session; a refresh of an older session does nothing. */
  generation: number;
  /** Trailing delay that merges a burst of notifications. */
  debounceMs: number;
  /** Delay of the second look when a refresh found no difference (0: none). */
  recheckMs: number;
  /** Page limit of list requests. */
  maxPages?: number | undefined;
  /** Bounds of one list item. @default DEFAULT_DEFINITION_LIMITS */
  definitionLimits?: DefinitionLimits | undefined;
  /** List skills too (servers that declare the Skills extension). */
  skills?: boolean | undefined;
  /** The server's offerings changed (already stored in `state.offerings`). */
  onChange: () => void;
  /** A refresh failed; the old lists stay registered. */
  onError: (error: unknown) => void;
}

/** Give a connected server one coalescing refresher per list kind, replacing older ones. */
export function startListRefreshers(options: StartListRefreshersOptions): void {
  const { state } = options;
  stopListRefreshers(state);
  for (const kind of Object.keys(LIST_KINDS) as ListKind[]) {
    state.refreshers.set(
      kind,
      new CoalescedRunner({
        debounceMs: options.debounceMs,
        task: () => refreshList(options, LIST_KINDS[kind]),
        onError: options.onError,
      }),
    );
  }
}

/** Stop and forget a server's refreshers. */
export function stopListRefreshers(state: ServerState): void {
  for (const runner of state.refreshers.values()) runner.stop();
  state.refreshers.clear();
  for (const timer of state.freshnessTimers.values()) clearTimeout(timer);
  state.freshnessTimers.clear();
}

/** The shortest and longest wait honoured for a list's `ttlMs`. */
const MIN_FRESHNESS_MS = 1_000;
const MAX_FRESHNESS_MS = 24 * 60 * 60 * 1_000;

const KIND_OF: Record<OfferingKind, ListKind> = {
  tools: 'tools',
  prompts: 'prompts',
  resources: 'resources',
  resourceTemplates: 'resources',
  skills: 'resources',
};

/**
 * Honour a list's `ttlMs` (MCP 2026-07-28 cache hint): read the list again when it runs out, as
 * if the server had said it changed. A hint of 0 or less means "no promise", so nothing is
 * scheduled (list_changed still applies); waits are clamped to 1 s to 24 h.
 */
export function scheduleFreshness(state: ServerState, kind: OfferingKind, ttlMs: number): void {
  if (!(ttlMs > 0)) return;
  const list = KIND_OF[kind];
  clearTimeout(state.freshnessTimers.get(list));
  const wait = Math.min(Math.max(ttlMs, MIN_FRESHNESS_MS), MAX_FRESHNESS_MS);
  const timer = setTimeout(() => {
    state.freshnessTimers.delete(list);
    state.refreshers.get(list)?.trigger();
  }, wait);
  timer.unref();
  state.freshnessTimers.set(list, timer);
}

async function refreshList(options: StartListRefreshersOptions, kinds: OfferingKind[]): Promise<void> {
  const { state, session, generation } = options;
  const current = () => generation === state.generation && state.status === McpServerStatus.CONNECTED;
  if (!current()) return;
  const timeout = state.definition.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
  const read = () =>
    discoverServer({
      serverName: state.name,
      client: session.client,
      filter: state.definition.config,
      signal: AbortSignal.timeout(timeout),
      timeout,
      maxPages: options.maxPages,
      definitionLimits: options.definitionLimits,
      kinds,
      onFreshness: (kind, ttlMs) => scheduleFreshness(state, kind, ttlMs),
      checkHeaderDeclarations: appliesHeaderRules(session.transportType, session.client.getNegotiatedProtocolVersion()),
      onExcludedTools: (excluded) => {
        if (current()) state.excludedTools = excluded;
      },
      skills: options.skills,
      onExcludedSkills: (excluded) => {
        if (current()) state.excludedSkills = excluded;
      },
    });
  const same = (fresh: Partial<ServerOfferings>) =>
    kinds.every((kind) => JSON.stringify(fresh[kind] ?? []) === JSON.stringify(state.offerings[kind]));
  let fresh = await read();
  if (same(fresh) && options.recheckMs > 0) {
    // Some servers notify before their new list is ready: look once more.
    await new Promise((resolve) => setTimeout(resolve, options.recheckMs));
    if (!current()) return;
    fresh = await read();
  }
  if (!current() || same(fresh)) return;
  state.offerings = { ...state.offerings, ...fresh };
  options.onChange();
}
