import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { CoalescedRunner } from './coalesced-runner.js';
import { discoverServer, type OfferingKind, type ServerOfferings } from './discover-server.js';
import type { ListKind, ServerSession } from './server-session.js';
import { McpServerStatus } from './server-status.js';
import type { ServerState } from './server-state.js';

/** Which offerings a `list_changed` notification refreshes. */
const LIST_KINDS: Record<ListKind, OfferingKind[]> = {
  tools: ['tools'],
  prompts: ['prompts'],
  resources: ['resources', 'resourceTemplates'],
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
      kinds,
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
