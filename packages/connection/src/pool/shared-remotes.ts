import { createHash } from 'node:crypto';
import { Client, isJSONRPCNotification, isJSONRPCRequest } from '@modelcontextprotocol/client';
import type { DiscoverResult, JSONRPCMessage, JSONRPCNotification, Transport } from '@modelcontextprotocol/client';
import { canonicalJson } from '@toolhost/config';
import { StoredTokenOAuthProvider, type FetchFunction, type TokenStore } from '@toolhost/oauth';
import { connectTransport, createTransport, resolveTransportKind, type ConnectedTransport } from '@toolhost/transport';
import { connectClient, type OpenedConnection, type TransportOptions } from '../connect-client.js';
import type { ConnectionClient } from '../connection-client.js';
import { ConnectionError } from '../connection-error.js';
import type { ConnectionRequest } from '../connection-request.js';
import { isModernRevision } from '../version-negotiation.js';
import { SharedSessionMember } from './shared-session-member.js';

/** A connection request of a host's manager (its clients are {@link ConnectionClient}s, whose handshake the pool compares). */
type PoolRequest = ConnectionRequest<ConnectionClient>;

/** What the pool knows of the host a connection is opened for. */
export interface PoolHost {
  /** The host's OAuth token store (the credential identity of its OAuth entries). */
  readonly tokenStore: TokenStore;
  /** The host's own `fetch` option, if any (it may add credentials). */
  readonly fetch: FetchFunction | undefined;
}

/** JSON-RPC error code of the answer to a server request the pool cannot attribute to a host. */
const UNATTRIBUTED_REQUEST = -32600;

/** Entry fields that change nothing on the wire (applied by each host on its own). */
const PER_HOST_FIELDS = new Set(['timeout', 'trust', 'description', 'includeTools', 'excludeTools']);

const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;

/** A stable number per object (a token store, a fetch function), to compare them without keeping them. */
function idOf(value: object | undefined): string {
  if (value === undefined) return 'none';
  let id = objectIds.get(value);
  if (id === undefined) {
    id = nextObjectId++;
    objectIds.set(value, id);
  }
  return String(id);
}

/** Header names in lower case (HTTP header names are case-insensitive). */
function headerMap(headers: RequestInit['headers'] | undefined): Record<string, string> {
  return Object.fromEntries([...new Headers(headers).entries()]);
}

/**
 * Who the server sees: `none` when no credential is sent (no OAuth provider, or a stored-token
 * provider of an entry without `oauth` settings and no stored token); the token store and its
 * entry for OAuth; `undefined` (never shared) for other providers (Google credentials, service
 * account impersonation, workload identity: credentials from the environment).
 */
async function credentialOf(request: PoolRequest, host: PoolHost): Promise<string | undefined> {
  const provider = request.transportOptions?.authProvider;
  if (!provider) return 'none';
  if (!(provider instanceof StoredTokenOAuthProvider)) return undefined;
  if (request.config.oauth === undefined) {
    const stored = await host.tokenStore.get(request.serverName).catch(() => null);
    if (stored === undefined) return 'none';
  }
  return `tokens:${idOf(host.tokenStore)}:${request.serverName}`;
}

/** The connection identity of a remote entry (see {@link connectionIdentity}). */
interface ConnectionIdentity {
  /** The identity as a SHA-256 hash: the pool's key of the session. */
  readonly key: string;
  /**
   * No credential of a host goes with the session (credential identity `none`): hosts with
   * different token stores share it, so no host's token may ever travel on it.
   */
  readonly anonymous: boolean;
  /** The `Authorization` header of the entry's own headers (the same for every host of the identity), if any. */
  readonly authorization: string | undefined;
}

/**
 * The connection identity of a remote entry, as a hash: the normalised URL and transport, every
 * entry field that changes the wire (headers, OAuth settings, pinned revision...), the
 * credential identity (see {@link credentialOf}), the host's own `fetch`, and what the client
 * declares in its handshake. Undefined when the entry is never shared (SSE, a provider whose
 * credentials are not the token store's).
 */
async function connectionIdentity(request: PoolRequest, host: PoolHost): Promise<ConnectionIdentity | undefined> {
  const { config, client } = request;
  const target = resolveTransportKind(request.serverName, config);
  if (target.kind !== 'http') return undefined;
  const credential = await credentialOf(request, host);
  if (credential === undefined) return undefined;
  const entry = Object.fromEntries(
    Object.entries(config).filter(([key]) => !PER_HOST_FIELDS.has(key) && key !== 'headers' && key !== 'url' && key !== 'httpUrl'),
  );
  const identity = {
    url: target.url.href,
    detectSse: target.detectSse,
    headers: headerMap({ ...headerMap(request.transportOptions?.requestInit?.headers), ...headerMap(config.headers) }),
    entry,
    credential,
    fetch: idOf(host.fetch),
    handshake: client.handshake,
  };
  return {
    key: createHash('sha256').update(canonicalJson(identity)).digest('hex'),
    anonymous: credential === 'none',
    authorization: identity.headers['authorization'],
  };
}

/**
 * The credential headers a request carries beyond the entry's own: an `Authorization` other than
 * the entry's (a token the host's OAuth provider added), or a `DPoP` proof. Empty for a request
 * that carries only what the session was opened with.
 */
function addedCredentials(init: RequestInit | undefined, authorization: string | undefined): string[] {
  const headers = new Headers(init?.headers);
  const added: string[] = [];
  const sent = headers.get('authorization') ?? undefined;
  if (sent !== authorization) added.push('authorization');
  if (headers.has('dpop')) added.push('dpop');
  return added;
}

/**
 * Transport options of the pool's own connection of an anonymous session: those of the host that
 * opened it, whose OAuth provider still maps a 401 to "sign in" (its store had no token), but
 * whose `fetch` takes off any credential the provider adds later (a token stored after the
 * session opened): the session is shared by hosts with other token stores, and the server would
 * tie its GET stream, and what it pushes there for every host, to that one user.
 */
function withoutHostCredentials(options: TransportOptions | undefined, authorization: string | undefined): TransportOptions {
  const inner = options?.fetch ?? globalThis.fetch;
  return {
    ...options,
    fetch: (input, init) => {
      const added = addedCredentials(init, authorization);
      if (added.length === 0) return inner(input, init);
      const headers = new Headers(init?.headers);
      for (const name of added) headers.delete(name);
      if (authorization !== undefined) headers.set('authorization', authorization);
      return inner(input, { ...init, headers });
    },
  };
}

/** One session shared by the hosts whose entries have the same connection identity. */
class SharedRemote {
  readonly key: string;
  /** The session carries no host's credential (see {@link ConnectionIdentity.anonymous}). */
  readonly #anonymous: boolean;
  /** The entry's own `Authorization` header, the only one requests of an anonymous session may carry. */
  readonly #authorization: string | undefined;
  /** Settles when the pool's own connection is up (or failed). */
  readonly ready: Promise<void>;
  /** Hosts holding (or joining) the connection. */
  users = 0;
  /** Set once the session cannot be used any more (closed, lost, forgotten by the server). */
  dead = false;
  /** The server turned out to speak legacy SSE: every host connects on its own. */
  unshareable = false;
  era: 'legacy' | 'modern' = 'legacy';
  readonly members = new Set<SharedSessionMember>();
  readonly #subscriptions = new Map<string, Set<SharedSessionMember>>();
  #anchor: { client: Client; connection: ConnectedTransport } | undefined;
  #initializeResult: Record<string, unknown> = {};
  #discover: DiscoverResult | undefined;
  #sessionId: string | undefined;
  #nextMember = 0;
  readonly #onDead: (remote: SharedRemote) => void;

  constructor(identity: ConnectionIdentity, first: PoolRequest, onDead: (remote: SharedRemote) => void) {
    this.key = identity.key;
    this.#anonymous = identity.anonymous;
    this.#authorization = identity.authorization;
    this.#onDead = onDead;
    this.ready = this.#open(first);
    this.ready.catch(() => {
      // A failed session is not reused: the next host to connect tries again.
      this.dead = true;
      onDead(this);
    });
  }

  /**
   * The pool's own connection: it initializes the session once, with the handshake every member
   * declares, holds the session's GET stream, and ends the session when the last host leaves.
   * Server requests on that stream belong to no host's request: they are refused.
   */
  async #open(first: PoolRequest): Promise<void> {
    const { handshake } = first.client;
    const client = new Client(handshake.clientInfo, {
      capabilities: handshake.capabilities ?? {},
      ...(handshake.versionNegotiation ? { versionNegotiation: handshake.versionNegotiation } : {}),
      ...(handshake.supportedProtocolVersions ? { supportedProtocolVersions: handshake.supportedProtocolVersions } : {}),
    });
    const connection = await connectTransport({
      ...(this.#anonymous ? withoutHostCredentials(first.transportOptions, this.#authorization) : first.transportOptions),
      serverName: first.serverName,
      config: first.config,
      client,
      timeout: first.timeout,
      // The session outlives the host that happened to open it: only its own deadline stops it.
      signal: AbortSignal.timeout(first.timeout),
    });
    if (this.dead) {
      // Every host waiting for it gave up meanwhile.
      await connection.close().catch(() => undefined);
      return;
    }
    if (connection.kind !== 'http') {
      this.unshareable = true;
      await connection.close().catch(() => undefined);
      return;
    }
    const version = client.getNegotiatedProtocolVersion();
    if (isModernRevision(version)) {
      // MCP 2026-07-28 has no session: what the hosts share is the negotiation (one server/discover).
      this.era = 'modern';
      this.#discover = client.getDiscoverResult();
      await connection.close().catch(() => undefined);
      return;
    }
    this.#anchor = { client, connection };
    this.#sessionId = connection.transport.sessionId;
    this.#initializeResult = {
      protocolVersion: version,
      capabilities: client.getServerCapabilities() ?? {},
      serverInfo: client.getServerVersion() ?? { name: 'unknown', version: '0' },
      ...(client.getInstructions() !== undefined ? { instructions: client.getInstructions() } : {}),
    };
    this.#interceptServerMessages(connection.transport);
    client.onclose = () => this.kill();
  }

  /** On the pool's own stream: refuse server requests (no host asked for them), pass notifications on to every member. */
  #interceptServerMessages(transport: Transport): void {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (isJSONRPCRequest(message)) {
        void transport.send(refusal(message)).catch(() => undefined);
        return;
      }
      if (isJSONRPCNotification(message)) this.#broadcast(message);
      deliver?.call(transport, message, extra);
    };
  }

  #broadcast(message: JSONRPCNotification): void {
    if (message.method === 'notifications/cancelled' || message.method === 'notifications/progress') return;
    if (message.method === 'notifications/resources/updated') {
      const uri = (message.params as { uri?: unknown } | undefined)?.uri;
      const subscribers = typeof uri === 'string' ? this.#subscriptions.get(uri) : undefined;
      for (const member of subscribers ?? []) member.deliver(message);
      return;
    }
    for (const member of this.members) member.deliver(message);
  }

  /** Connect one host's client over the shared session (or, on 2026-07-28, with the shared negotiation). */
  async join(request: PoolRequest): Promise<OpenedConnection> {
    if (this.era === 'modern') return this.#joinModern(request);
    let handle: ReturnType<typeof createTransport>;
    // The member, once made: the fetch of an anonymous session closes it when the host's credentials change.
    const joining: { member?: SharedSessionMember } = {};
    try {
      handle = createTransport(request.config, {
        ...request.transportOptions,
        ...(this.#anonymous ? { fetch: this.#refuseHostCredentials(request, () => joining.member) } : {}),
        serverName: request.serverName,
        ...(this.#sessionId !== undefined ? { sessionId: this.#sessionId } : {}),
        endSessionOnClose: false,
      });
    } catch (error) {
      await this.release();
      throw error;
    }
    this.#nextMember += 1;
    const member = new SharedSessionMember(
      handle.transport,
      {
        initializeResult: () => this.#initializeResult,
        subscribe: (uri, who) => {
          const set = this.#subscriptions.get(uri) ?? new Set();
          set.add(who);
          this.#subscriptions.set(uri, set);
        },
        unsubscribe: (uri, who) => {
          const set = this.#subscriptions.get(uri);
          set?.delete(who);
          if (set && set.size === 0) this.#subscriptions.delete(uri);
          return (set?.size ?? 0) > 0;
        },
        sessionGone: () => this.kill(),
        leave: (who) => this.#leave(who),
      },
      `toolhost-${this.#nextMember}:`,
    );
    joining.member = member;
    this.members.add(member);
    const close = async (): Promise<void> => {
      await member.close().catch(() => undefined);
      await request.client.close().catch(() => undefined);
    };
    try {
      await request.client.connect(member, { prior: { kind: 'legacy' }, timeout: request.timeout, signal: request.signal });
    } catch (error) {
      await close();
      throw error;
    }
    return { transportType: 'http', stderrTail: () => [], pid: () => undefined, close };
  }

  /**
   * The `fetch` of one host's requests on an anonymous session: a request that would carry a
   * credential the session was not opened with (a token stored for the host after it joined) is
   * not sent; the host leaves the session and reconnects, with its credentials, on a session of
   * its own (its credential identity has changed).
   */
  #refuseHostCredentials(request: PoolRequest, member: () => SharedSessionMember | undefined): TransportOptions['fetch'] {
    const inner = request.transportOptions?.fetch ?? globalThis.fetch;
    return (input, init) => {
      if (addedCredentials(init, this.#authorization).length === 0) return inner(input, init);
      // Once this request has failed: closing the member disconnects the host, which reconnects.
      setTimeout(() => void SharedRemote.#closeMember(member()), 0);
      return Promise.reject(
        new ConnectionError({
          code: 'CONNECTION_CLOSED',
          serverName: request.serverName,
          message: `MCP server "${request.serverName}": this host now has credentials for the server (a token was stored after it connected), but it shares a connection of the connection pool opened without credentials with other hosts. The request was not sent; the host reconnects with its own credentials. Try again.`,
        }),
      );
    };
  }

  /** Close `member` (its host reconnects), ignoring a failure to close. */
  static async #closeMember(member: SharedSessionMember | undefined): Promise<void> {
    await member?.close().catch(() => undefined);
  }

  async #joinModern(request: PoolRequest): Promise<OpenedConnection> {
    const discover = this.#discover;
    if (!discover) return this.#own(request);
    let left = false;
    const leave = async (): Promise<void> => {
      if (left) return;
      left = true;
      await this.release();
    };
    let handle: ReturnType<typeof createTransport> | undefined;
    const close = async (): Promise<void> => {
      await handle?.close().catch(() => undefined);
      await request.client.close().catch(() => undefined);
      await leave();
    };
    try {
      handle = createTransport(request.config, { ...request.transportOptions, serverName: request.serverName });
      await request.client.connect(handle.transport, {
        prior: { kind: 'modern', discover },
        timeout: request.timeout,
        signal: request.signal,
      });
    } catch (error) {
      await close();
      throw error;
    }
    return { transportType: 'http', stderrTail: () => [], pid: () => undefined, close };
  }

  /** A connection of the host's own (used when the session cannot be shared after all). */
  async #own(request: PoolRequest): Promise<OpenedConnection> {
    await this.release();
    return connectClient(request);
  }

  #leave(member: SharedSessionMember): Promise<void> {
    if (!this.members.delete(member)) return Promise.resolve();
    for (const [uri, set] of this.#subscriptions) {
      if (!set.delete(member) || set.size > 0) continue;
      this.#subscriptions.delete(uri);
      // Nobody follows it any more: the session stops following it too.
      void this.#anchor?.client.unsubscribeResource({ uri }).catch(() => undefined);
    }
    return this.release();
  }

  /** One host stopped using the connection; the last one ends the session (resolves once the session DELETE is done). */
  async release(): Promise<void> {
    this.users -= 1;
    if (this.users > 0) return;
    await this.#retire();
  }

  /** The session is gone (the pool's stream closed, or the server forgot it): every member closes, and reconnects on its own. */
  kill(): void {
    if (this.dead) return;
    void this.#retire();
    for (const member of [...this.members]) void member.close().catch(() => undefined);
  }

  /** Marks the session dead, takes it out of the pool and closes the pool's own connection (resolves once that is closed). */
  async #retire(): Promise<void> {
    this.dead = true;
    this.#onDead(this);
    const anchor = this.#anchor;
    this.#anchor = undefined;
    if (!anchor) return;
    anchor.client.onclose = undefined;
    await anchor.connection.close().catch(() => undefined);
  }

  /** How many hosts use it now. */
  get memberCount(): number {
    return this.era === 'modern' ? this.users : this.members.size;
  }
}

/** The answer to a server request on the pool's own stream: no host asked for it. */
function refusal(message: JSONRPCMessage & { id: string | number; method: string }): JSONRPCMessage {
  if (message.method === 'ping') return { jsonrpc: '2.0', id: message.id, result: {} };
  if (message.method === 'elicitation/create') return { jsonrpc: '2.0', id: message.id, result: { action: 'decline' } };
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: UNATTRIBUTED_REQUEST,
      message:
        `${message.method} was refused: this connection is shared by several users (a toolhost connection pool), and a ` +
        'request outside any client request cannot be attributed to one of them. Send it while handling the request it belongs to.',
    },
  };
}

/**
 * The remote sessions of a pool, by connection identity: hosts whose entries resolve to the same
 * identity share one session; the last one to leave ends it.
 */
export class SharedRemotes {
  readonly #remotes = new Map<string, SharedRemote>();
  /** Identities whose server turned out to speak legacy SSE: each host connects on its own. */
  readonly #unshareable = new Set<string>();

  /** Sessions alive now. */
  get size(): number {
    return this.#remotes.size;
  }

  /** Hosts using a shared session now. */
  get users(): number {
    let count = 0;
    for (const remote of this.#remotes.values()) count += remote.memberCount;
    return count;
  }

  /** Connect one host's client: over the shared session of its identity when there is one to share. */
  async open(request: PoolRequest, host: PoolHost): Promise<OpenedConnection> {
    let identity: ConnectionIdentity | undefined;
    try {
      identity = await connectionIdentity(request, host);
    } catch {
      identity = undefined;
    }
    if (identity === undefined || this.#unshareable.has(identity.key)) return connectClient(request);
    const { key } = identity;
    let remote = this.#remotes.get(key);
    if (!remote || remote.dead) {
      remote = new SharedRemote(identity, request, (dead) => {
        if (this.#remotes.get(dead.key) === dead) this.#remotes.delete(dead.key);
      });
      this.#remotes.set(key, remote);
    }
    remote.users += 1;
    try {
      await abortable(remote.ready, request.signal);
    } catch (error) {
      await remote.release();
      throw error;
    }
    if (remote.unshareable || remote.dead) {
      if (remote.unshareable) this.#unshareable.add(key);
      await remote.release();
      return connectClient(request);
    }
    // On failure, join() has given the place back.
    return remote.join(request);
  }
}

/** `promise`, or the signal's reason as soon as it aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
