import { ProtocolError, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { ToolhostError } from '@toolhost/contract';
import type { Client, RequestOptions, CallToolResult } from '@modelcontextprotocol/client';
import {
  connectClient,
  isModernRevision,
  type ConnectClientOptions,
  type OpenConnection,
  type OpenedConnection,
} from '@toolhost/connection';
import { DiscoveryError } from './discovery-error.js';
import { judgeListAnswers } from './list-answer-filter.js';
import type { DefinitionLimits } from './judge-list-items.js';
import { ListChangeSubscription } from './list-change-subscription.js';
import { mapRequestError } from './map-request-error.js';

/** Which list a `list_changed` notification is about. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** Options of {@link ServerSession.open}: those of {@link connectClient} (with a fresh, unconnected client), plus callbacks. */
export interface OpenSessionOptions extends ConnectClientOptions {
  /** Called when the server says one of its lists changed (only for declared capabilities). */
  onListChanged: (kind: ListKind) => void;
  /** Called once if the connection goes away without {@link ServerSession.close} being called. */
  onLost: (error: DiscoveryError) => void;
  /** Where the connection comes from. @default connectClient */
  openConnection?: OpenConnection | undefined;
  /** Bounds of one list item (see `judgeListAnswers`). @default DEFAULT_DEFINITION_LIMITS */
  definitionLimits?: DefinitionLimits | undefined;
  /** Closes the session on behalf of its connection source (see `ConnectionRequest.park`). @default nothing to park */
  park?: ((reason: string) => Promise<boolean>) | undefined;
}

/** Options of one tool call. */
export type CallOptions = Pick<RequestOptions, 'signal' | 'timeout' | 'onprogress' | 'resetTimeoutOnProgress' | 'maxTotalTimeout'>;

/** How long a liveness ping after a transport error may take. */
const LIVENESS_TIMEOUT_MS = 5_000;

/** One live connection to one server: its client, transport and lifecycle. */
export class ServerSession {
  /** The connected client. */
  readonly client: Client;
  readonly #serverName: string;
  #connection: OpenedConnection | undefined;
  #closing = false;
  #lostError: DiscoveryError | undefined;
  #lostListeners = new Set<(error: DiscoveryError) => void>();
  #checkingLiveness = false;
  #onLost: (error: DiscoveryError) => void = () => undefined;
  #open = false;
  #listChanges: ListChangeSubscription | undefined;

  private constructor(serverName: string, client: Client) {
    this.#serverName = serverName;
    this.client = client;
  }

  /** Connect a client to the server. The promise rejects with a {@link DiscoveryError}. */
  static async open(options: OpenSessionOptions): Promise<ServerSession> {
    const session = new ServerSession(options.serverName, options.client);
    const { client } = options;
    const listChanged = (kind: ListKind) => async () => {
      const capabilities = client.getServerCapabilities();
      if (capabilities?.[kind] && !session.#closing) options.onListChanged(kind);
    };
    client.setNotificationHandler('notifications/tools/list_changed', listChanged('tools'));
    client.setNotificationHandler('notifications/prompts/list_changed', listChanged('prompts'));
    client.setNotificationHandler('notifications/resources/list_changed', listChanged('resources'));
    session.#onLost = options.onLost;
    const previousClose = client.onclose;
    client.onclose = () => {
      previousClose?.();
      session.#markLost('closed the connection');
    };
    const previousError = client.onerror;
    client.onerror = (error) => {
      previousError?.(error);
      session.#checkLiveness(error);
    };
    try {
      const { serverName, config, timeout, signal, transportOptions } = options;
      const park = options.park ?? (() => Promise.resolve(false));
      session.#connection = options.openConnection
        ? await options.openConnection({ serverName, config, client, timeout, signal, transportOptions, park })
        : await connectClient(options);
      session.#open = true;
      // Each item of a list answer is judged on its own, before the SDK's strict parse of the
      // whole list (MCP 2026-07-28) could drop the server for one bad tool.
      if (client.transport) judgeListAnswers(client.transport, options.definitionLimits);
      if (ListChangeSubscription.wanted(client)) {
        // 2026-07-28 has no unsolicited list_changed: ask for them on a subscriptions/listen stream.
        session.#listChanges = new ListChangeSubscription({ client, active: () => !session.isClosed });
        await session.#listChanges.open();
      }
    } catch (error) {
      session.#closing = true;
      await client.close().catch(() => undefined);
      // A transport error already names this server and says what happened: say it once.
      const named = ToolhostError.isInstance(error) && (error as { serverName?: unknown }).serverName === options.serverName;
      throw new DiscoveryError({
        code: 'CONNECT_FAILED',
        message: named
          ? error.message
          : `Could not connect to MCP server '${options.serverName}': ${error instanceof Error ? error.message : String(error)}`,
        serverName: options.serverName,
        cause: error,
      });
    }
    return session;
  }

  /** Whether the connection went away (or was closed). */
  get isClosed(): boolean {
    return this.#closing || this.#lostError !== undefined;
  }

  /** The transport actually used. */
  get transportType(): OpenedConnection['transportType'] | undefined {
    return this.#connection?.transportType;
  }

  /** Last lines the server wrote to stderr. */
  stderrTail(): string[] {
    return this.#connection?.stderrTail() ?? [];
  }

  /**
   * Run one request on the client. Rejects at once with `CONNECTION_CLOSED` if the connection
   * goes away while it is in flight; every failure is a {@link DiscoveryError} naming the server.
   */
  async request<T>(
    subject: { description: string; toolName?: string | undefined; signal?: AbortSignal | undefined },
    run: (client: Client) => Promise<T>,
  ): Promise<T> {
    const fullSubject = () => ({ ...subject, serverName: this.#serverName, lostError: this.#lostError });
    if (this.isClosed) throw this.#lostError ?? this.#closedError();
    let unsubscribe: (() => void) | undefined;
    const lost = new Promise<never>((_, reject) => {
      const listener = (error: DiscoveryError) => reject(error);
      this.#lostListeners.add(listener);
      unsubscribe = () => this.#lostListeners.delete(listener);
    });
    try {
      return await Promise.race([run(this.client), lost]);
    } catch (error) {
      throw mapRequestError(error, fullSubject());
    } finally {
      unsubscribe?.();
    }
  }

  /** Call a tool by its original name (see {@link ServerSession.request}). */
  callTool(name: string, args: Record<string, unknown> | undefined, options: CallOptions): Promise<CallToolResult> {
    return this.request(
      { description: `tool '${name}'`, toolName: name, signal: options.signal },
      (client) => client.callTool({ name, arguments: args }, options) as Promise<CallToolResult>,
    );
  }

  /** Close on purpose: no `onLost`, in-flight calls fail with `CONNECTION_CLOSED`. */
  async close(): Promise<void> {
    if (this.#closing) return;
    this.#closing = true;
    const error = this.#closedError();
    for (const listener of [...this.#lostListeners]) listener(error);
    this.#lostListeners.clear();
    await this.#listChanges?.close();
    await (this.#connection?.close() ?? this.client.close()).catch(() => undefined);
  }

  #closedError(): DiscoveryError {
    return new DiscoveryError({
      code: 'CONNECTION_CLOSED',
      message: `The connection to MCP server '${this.#serverName}' was closed.`,
      serverName: this.#serverName,
    });
  }

  #markLost(what: string, cause?: unknown): void {
    if (!this.#open || this.#closing || this.#lostError) return;
    const stderr = this.stderrTail().slice(-5);
    const detail = stderr.length ? ` Last stderr lines:\n${stderr.join('\n')}` : '';
    this.#lostError = new DiscoveryError({
      code: 'CONNECTION_CLOSED',
      message: `MCP server '${this.#serverName}' ${what}; it will be reconnected if possible.${detail}`,
      serverName: this.#serverName,
      cause,
    });
    const error = this.#lostError;
    for (const listener of [...this.#lostListeners]) listener(error);
    this.#lostListeners.clear();
    this.#onLost(error);
    // Make sure the transport and any child process are gone and pending requests rejected.
    void (this.#connection?.close() ?? this.client.close()).catch(() => undefined);
  }

  /**
   * A transport error may mean the peer is gone (HTTP servers do not "close"): ask it something
   * to find out. `ping` on 2025-era connections; MCP 2026-07-28 has no `ping`, so `server/discover`
   * there. An error that is itself an answer (a JSON-RPC error, or a 401/403 asking for
   * authorization) says the server is alive, and is left to the request it belongs to.
   */
  #checkLiveness(error: unknown): void {
    if (this.#closing || this.#lostError || this.#checkingLiveness || !this.#connection) return;
    if (error instanceof ProtocolError || isAuthorizationAnswer(error)) return;
    this.#checkingLiveness = true;
    const request = { timeout: LIVENESS_TIMEOUT_MS };
    const question = isModernRevision(this.client.getNegotiatedProtocolVersion())
      ? this.client.discover(request)
      : this.client.ping(request);
    question
      .catch((pingError: unknown) => {
        // A server that answers at all (even with an error, or asking for authorization) is alive;
        // a timeout or a closed connection is an SdkError.
        if (pingError instanceof ProtocolError || isAuthorizationAnswer(pingError)) return;
        this.#markLost('stopped answering', error);
      })
      .finally(() => {
        this.#checkingLiveness = false;
      });
  }
}

/** True for an error that is the server asking for authorization (HTTP 401/403, or the OAuth layer refusing to go on without a sign-in). */
function isAuthorizationAnswer(error: unknown): boolean {
  if (error instanceof SdkHttpError && (error.status === 401 || error.status === 403)) return true;
  if (error instanceof UnauthorizedError) return true;
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return code === 'AUTH_REQUIRED' || code === 'STEP_UP_LIMIT';
}
