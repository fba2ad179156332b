import type { McpServerConfig } from '@toolhost/config';
import type { Client } from '@modelcontextprotocol/client';
import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import type { OpenConnection, TransportOptions } from '@toolhost/connection';
import { appliesHeaderRules, discoverServer, type OfferingKind, type ServerOfferings } from './discover-server.js';
import { DiscoveryError } from './discovery-error.js';
import { scheduleFreshness, startListRefreshers, stopListRefreshers } from './list-refreshers.js';
import { reconnectDelay, type ResolvedReconnectOptions } from './reconnect-delay.js';
import { ServerSession } from './server-session.js';
import { McpServerStatus } from './server-status.js';
import { emptyOfferings, type ServerState } from './server-state.js';
import { rootCauseCode } from './root-cause-code.js';
import type { DefinitionLimits } from './judge-list-items.js';

/** What the connector needs from the manager. */
export interface ServerConnectorOptions {
  /** Makes a fresh client per attempt. */
  createClient: (serverName: string, config: McpServerConfig) => Client;
  /** Transport-layer options per server. */
  transportOptions?: ((serverName: string) => TransportOptions | undefined) | undefined;
  /** Where connections come from (a connection pool). @default connectClient */
  openConnection?: OpenConnection | undefined;
  /** Reconnect policy. */
  reconnect: ResolvedReconnectOptions;
  /** Page limit of list requests. */
  maxPages?: number | undefined;
  /** Bounds of one list item. */
  definitionLimits: DefinitionLimits;
  /** Debounce of list_changed refreshes. */
  listChangedDebounceMs: number;
  /** Re-check delay after a refresh that found no difference. */
  listChangedRecheckMs: number;
  /** Whether the manager is closed. */
  isClosed: () => boolean;
  /** Change a server's status (and emit the event). */
  setStatus: (state: ServerState, status: McpServerStatus, error?: DiscoveryError) => void;
  /** Some server's offerings changed: rebuild the registries. */
  onOfferingsChange: () => void;
  /** Report an error that does not change a status. */
  onServerError: (state: ServerState, error: DiscoveryError) => void;
  /** List the skills of servers that declare the Skills extension. */
  skills?: boolean | undefined;
}

function hasAnything(offerings: ServerOfferings): boolean {
  const { tools, prompts, resources, resourceTemplates, skills } = offerings;
  return tools.length + prompts.length + resources.length + resourceTemplates.length + skills.length > 0;
}

/** Connects, discovers, refreshes and reconnects servers for {@link McpServerManager}. */
export class ServerConnector {
  readonly #options: ServerConnectorOptions;

  /** Create a connector. */
  constructor(options: ServerConnectorOptions) {
    this.#options = options;
  }

  /** Connect and discover one server under its timeout. Never rejects. */
  connect(state: ServerState, options: { reconnectOnFailure: boolean }): Promise<void> {
    const attempt = this.#connect(state, options);
    state.connecting = attempt;
    void attempt.finally(() => {
      if (state.connecting === attempt) state.connecting = undefined;
    });
    return attempt;
  }

  async #connect(state: ServerState, { reconnectOnFailure }: { reconnectOnFailure: boolean }): Promise<void> {
    if (this.#options.isClosed()) return;
    const generation = ++state.generation;
    state.pendingListChanges.clear();
    const timeout = state.definition.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
    const abort = new AbortController();
    state.connectAbort = abort;
    const timer = setTimeout(() => {
      abort.abort(
        new DiscoveryError({
          code: 'DISCOVERY_TIMEOUT',
          message:
            `MCP server '${state.name}' did not finish connecting and discovery within ${timeout} ms; ` +
            "check that it starts, or raise the entry's timeout.",
          serverName: state.name,
        }),
      );
    }, timeout);
    this.#options.setStatus(state, McpServerStatus.CONNECTING);
    let session: ServerSession | undefined;
    try {
      session = await ServerSession.open({
        serverName: state.name,
        config: state.definition.config,
        client: this.#options.createClient(state.name, state.definition.config),
        timeout,
        signal: abort.signal,
        transportOptions: this.#options.transportOptions?.(state.name),
        onListChanged: (kind) => {
          if (generation !== state.generation) return;
          const runner = state.refreshers.get(kind);
          // Notified while the first lists were being read: refresh once connected.
          if (runner) runner.trigger();
          else state.pendingListChanges.add(kind);
        },
        onLost: (error) => this.#handleLost(state, generation, error),
        openConnection: this.#options.openConnection,
        definitionLimits: this.#options.definitionLimits,
        park: (reason) => this.#park(state, generation, reason),
      });
      const freshness = new Map<OfferingKind, number>();
      const offerings = {
        ...emptyOfferings(),
        ...(await this.#discover(state, session, abort.signal, timeout, undefined, (kind, ttlMs) => freshness.set(kind, ttlMs))),
      };
      if (abort.signal.aborted) throw abort.signal.reason;
      if (generation !== state.generation || this.#options.isClosed()) {
        await session.close();
        return;
      }
      const client = session.client;
      state.transportType = session.transportType;
      state.instructions = client.getInstructions();
      state.serverInfo = client.getServerVersion();
      state.protocolVersion = client.getNegotiatedProtocolVersion();
      state.capabilities = client.getServerCapabilities();
      if (!hasAnything(offerings)) {
        state.lastStderr = session.stderrTail();
        this.#unpark(state);
        await session.close();
        this.#options.setStatus(
          state,
          McpServerStatus.DISCONNECTED,
          new DiscoveryError({
            code: 'NOTHING_OFFERED',
            message: `MCP server '${state.name}' offers no tools, prompts or resources (after includeTools/excludeTools), so it was disconnected.`,
            serverName: state.name,
          }),
        );
        return;
      }
      state.session = session;
      state.offerings = offerings;
      state.parked = false;
      state.connectedAt = Date.now();
      startListRefreshers({
        state,
        session,
        generation,
        debounceMs: this.#options.listChangedDebounceMs,
        recheckMs: this.#options.listChangedRecheckMs,
        maxPages: this.#options.maxPages,
        definitionLimits: this.#options.definitionLimits,
        skills: this.#options.skills,
        onChange: this.#options.onOfferingsChange,
        onError: (error) => this.#options.onServerError(state, this.#toDiscoveryError(state, error)),
      });
      for (const [kind, ttlMs] of freshness) scheduleFreshness(state, kind, ttlMs);
      this.#options.setStatus(state, McpServerStatus.CONNECTED);
      this.#options.onOfferingsChange();
      for (const kind of state.pendingListChanges) state.refreshers.get(kind)?.trigger();
      state.pendingListChanges.clear();
    } catch (caught) {
      const error = this.#toDiscoveryError(state, abort.signal.aborted ? explainAbort(abort.signal.reason, caught) : caught);
      if (session) {
        state.lastStderr = session.stderrTail();
        await session.close();
      }
      if (generation !== state.generation || this.#options.isClosed()) return;
      // A parked server that could not get a place in its pool stays parked: the next use tries again.
      if (rootCauseCode(error) !== 'CONNECTION_POOL_FULL') this.#unpark(state);
      this.#options.setStatus(state, McpServerStatus.DISCONNECTED, error);
      if (reconnectOnFailure) this.#scheduleReconnect(state);
    } finally {
      clearTimeout(timer);
      if (state.connectAbort === abort) state.connectAbort = undefined;
    }
  }

  /**
   * Close a server's session and cancel its reconnects and refreshes; resolves once a
   * cancelled connection attempt has also closed (and stopped its child process).
   */
  async disconnect(state: ServerState): Promise<void> {
    const attempt = state.connecting;
    state.generation++;
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = undefined;
    // A deliberate disconnect (or reconnect by hand) ends any streak of failed reconnects.
    state.reconnectAttempts = 0;
    state.connectAbort?.abort(
      new DiscoveryError({
        code: 'CONNECT_FAILED',
        message: `Connecting to MCP server '${state.name}' was cancelled.`,
        serverName: state.name,
      }),
    );
    stopListRefreshers(state);
    this.#unpark(state);
    const session = state.session;
    state.session = undefined;
    if (session) {
      this.#options.setStatus(state, McpServerStatus.DISCONNECTING);
      state.lastStderr = session.stderrTail();
      state.offerings = emptyOfferings();
      state.excludedTools = [];
      state.excludedSkills = [];
      this.#options.onOfferingsChange();
      await session.close();
      this.#options.setStatus(state, McpServerStatus.DISCONNECTED);
    }
    await attempt;
  }

  /**
   * Read every list of a connected server again over its live session and register what changed
   * (the session, and the server process, stay). Rejects when the server is not connected or a
   * list request fails; the old lists then stay registered.
   */
  async relist(state: ServerState): Promise<void> {
    const session = state.session;
    if (!session || state.status !== McpServerStatus.CONNECTED) {
      throw new DiscoveryError({
        code: 'SERVER_NOT_CONNECTED',
        message: `MCP server '${state.name}' is not connected, so its lists cannot be read again.`,
        serverName: state.name,
      });
    }
    const generation = state.generation;
    const timeout = state.definition.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
    const fresh = await this.#discover(state, session, AbortSignal.timeout(timeout), timeout);
    if (generation !== state.generation || state.status !== McpServerStatus.CONNECTED) return;
    state.offerings = { ...emptyOfferings(), ...fresh };
    this.#options.onOfferingsChange();
  }

  #discover(
    state: ServerState,
    session: ServerSession,
    signal: AbortSignal,
    timeout: number,
    kinds?: OfferingKind[],
    onFreshness?: (kind: OfferingKind, ttlMs: number) => void,
  ) {
    return discoverServer({
      onFreshness,
      serverName: state.name,
      client: session.client,
      filter: state.definition.config,
      signal,
      timeout,
      maxPages: this.#options.maxPages,
      definitionLimits: this.#options.definitionLimits,
      kinds,
      checkHeaderDeclarations: appliesHeaderRules(session.transportType, session.client.getNegotiatedProtocolVersion()),
      onExcludedTools: (excluded) => {
        state.excludedTools = excluded;
      },
      skills: this.#options.skills,
      onExcludedSkills: (excluded) => {
        state.excludedSkills = excluded;
      },
    });
  }

  /**
   * Close a connected server's session on behalf of its connection source (see
   * `ConnectionRequest.park`): its offerings stay registered, its status is `DISCONNECTED` with
   * `reason` (`CLOSED_BY_POOL`), and nothing reconnects it until its next use.
   */
  async #park(state: ServerState, generation: number, reason: string): Promise<boolean> {
    const session = state.session;
    if (generation !== state.generation || state.status !== McpServerStatus.CONNECTED || !session || this.#options.isClosed()) {
      return false;
    }
    state.generation++;
    clearTimeout(state.reconnectTimer);
    state.reconnectTimer = undefined;
    stopListRefreshers(state);
    state.session = undefined;
    state.parked = true;
    state.lastStderr = session.stderrTail();
    this.#options.setStatus(
      state,
      McpServerStatus.DISCONNECTED,
      new DiscoveryError({ code: 'CLOSED_BY_POOL', message: reason, serverName: state.name }),
    );
    await session.close();
    return true;
  }

  /** A parked server stops being one: its kept offerings leave the registries. */
  #unpark(state: ServerState): void {
    if (!state.parked) return;
    state.parked = false;
    state.offerings = emptyOfferings();
    state.excludedTools = [];
    state.excludedSkills = [];
    this.#options.onOfferingsChange();
  }

  #handleLost(state: ServerState, generation: number, error: DiscoveryError): void {
    // Lost during discovery: the failing list request reports it through connect().
    if (generation !== state.generation || state.status !== McpServerStatus.CONNECTED) return;
    if (this.#options.isClosed()) return;
    state.generation++;
    // Only a connection that stayed up for a while ends the streak; one that drops right after
    // each reconnect (a crash loop) must still run into maxAttempts.
    const upMs = Date.now() - (state.connectedAt ?? 0);
    if (upMs >= this.#options.reconnect.maxDelayMs) state.reconnectAttempts = 0;
    stopListRefreshers(state);
    state.lastStderr = state.session?.stderrTail() ?? state.lastStderr;
    state.session = undefined;
    state.offerings = emptyOfferings();
    state.excludedTools = [];
    state.excludedSkills = [];
    this.#options.setStatus(state, McpServerStatus.DISCONNECTED, error);
    this.#options.onOfferingsChange();
    this.#scheduleReconnect(state);
  }

  #scheduleReconnect(state: ServerState): void {
    const { reconnect } = this.#options;
    if (this.#options.isClosed() || reconnect.maxAttempts <= 0) return;
    if (state.reconnectAttempts >= reconnect.maxAttempts) {
      this.#options.onServerError(
        state,
        new DiscoveryError({
          code: 'RECONNECT_GAVE_UP',
          message:
            `Gave up reconnecting to MCP server '${state.name}' after ${state.reconnectAttempts} attempts; ` +
            'fix the server and reconnect it by hand.',
          serverName: state.name,
          cause: state.lastError,
        }),
      );
      return;
    }
    state.reconnectAttempts++;
    const delay = reconnectDelay(state.reconnectAttempts, reconnect);
    const generation = state.generation;
    state.reconnectTimer = setTimeout(() => {
      state.reconnectTimer = undefined;
      if (generation !== state.generation) return;
      void this.connect(state, { reconnectOnFailure: true });
    }, delay);
  }

  #toDiscoveryError(state: ServerState, error: unknown): DiscoveryError {
    if (DiscoveryError.isInstance(error)) return error;
    return new DiscoveryError({
      code: 'CONNECT_FAILED',
      message: `MCP server '${state.name}' failed: ${error instanceof Error ? error.message : String(error)}`,
      serverName: state.name,
      cause: error,
    });
  }
}

/**
 * The reason a connection attempt was aborted with, plus, when a layer below said what was still
 * pending at that moment (an error in `caught`'s cause chain whose cause is `reason`, such as a
 * legacy SSE server that never sent its `endpoint` event), that explanation in the message.
 */
function explainAbort(reason: unknown, caught: unknown): unknown {
  let current: unknown = caught;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.cause === reason && current !== reason) {
      if (!DiscoveryError.isInstance(reason)) return current;
      return new DiscoveryError({
        code: reason.code,
        // The lower layer's message may already quote the reason: say it once.
        message: current.message.includes(reason.message) ? reason.message : `${reason.message} ${current.message}`,
        ...(reason.serverName !== undefined ? { serverName: reason.serverName } : {}),
        cause: current,
      });
    }
    current = current.cause;
  }
  return reason;
}
