import { resolveTransportKind } from '@toolhost/transport';
import { connectClient } from '../connect-client.js';
import type { ConnectionClient } from '../connection-client.js';
import { ConnectionError } from '../connection-error.js';
import type { OpenConnection } from '../connection-request.js';
import { SharedRemotes, type PoolHost } from './shared-remotes.js';
import { StdioProcesses } from './stdio-processes.js';

/** Default of {@link ConnectionPoolOptions.maxProcesses}. */
export const DEFAULT_POOL_MAX_PROCESSES = 32;
/** Default of {@link ConnectionPoolOptions.idleMs}: 10 minutes. */
export const DEFAULT_POOL_IDLE_MS = 600_000;
/** Default of {@link ConnectionPoolOptions.acquireTimeoutMs}. */
export const DEFAULT_POOL_ACQUIRE_TIMEOUT_MS = 30_000;

/** Options of {@link createConnectionPool}. Every field is optional. */
export interface ConnectionPoolOptions {
  /**
   * Most stdio server processes alive at once, across every host that shares the pool. When a
   * host needs one more, the least recently used idle process (no request in flight either way,
   * no resource subscription) of any host is closed to make room; its host shows the server
   * `DISCONNECTED` (`CLOSED_BY_POOL`) and starts it again on its next use.
   * @default 32
   */
  readonly maxProcesses?: number;
  /**
   * A stdio process with no request in flight (and no resource subscription) for this long is
   * closed (checked by an unref'd timer, so an idle pool never keeps Node running); `Infinity`
   * keeps idle processes until room is needed. @default 600000 (10 minutes)
   */
  readonly idleMs?: number;
  /**
   * How long a new stdio process waits for a place when all `maxProcesses` are busy; then its
   * connection fails with `CONNECTION_POOL_FULL`, naming the server and the bound. @default 30000
   */
  readonly acquireTimeoutMs?: number;
  /**
   * Share remote (Streamable HTTP) connections between hosts whose entries have the same
   * connection identity (URL, entry settings, credentials, client handshake). @default true
   */
  readonly shareRemoteConnections?: boolean;
}

/** What a pool holds now (see {@link ConnectionPool.stats}). */
export interface ConnectionPoolStats {
  /** stdio processes alive (or starting, or closing). */
  readonly processes: number;
  /** Of those, the ones with a request in flight, a resource subscription, or still starting. */
  readonly busyProcesses: number;
  /** Remote sessions shared through the pool. */
  readonly sharedConnections: number;
  /** Host connections using those sessions. */
  readonly sharedConnectionUsers: number;
}

/** The internals of each pool, out of its public surface. */
const INTERNALS = new WeakMap<ConnectionPool, { stdio: StdioProcesses; remotes: SharedRemotes; shareRemote: boolean }>();

/**
 * Connections shared by several `McpToolHost`s of one process (one host per user session
 * in a web backend). Create one with {@link createConnectionPool} and pass it to every
 * `McpToolHost.create({ connectionPool })`.
 *
 * - Remote Streamable HTTP entries: hosts whose entries resolve to the same connection identity
 *   (normalised URL and transport, every entry setting that changes the wire such as `headers`,
 *   the credential identity, the host's `fetch`, and the client's handshake) share one MCP
 *   session, opened by the pool and ended when the last of them closes. A host with other
 *   credentials never gets another's session. Each host still sends its own requests; see
 *   docs/connection-pool.md for what is per host and how server requests are attributed.
 * - stdio entries: each host has its own process, but at most `maxProcesses` of them are alive
 *   across the pool; idle ones are closed (after `idleMs`, or to make room) and start again on
 *   their host's next use.
 */
export class ConnectionPool {
  /** Most stdio processes alive at once. */
  readonly maxProcesses: number;
  /** Idle time after which a stdio process is closed. */
  readonly idleMs: number;
  /** Longest wait for a stdio place when every process is busy. */
  readonly acquireTimeoutMs: number;

  /** Use {@link createConnectionPool}. */
  constructor(options: ConnectionPoolOptions = {}) {
    this.maxProcesses = checkCount('maxProcesses', options.maxProcesses, DEFAULT_POOL_MAX_PROCESSES);
    this.idleMs = checkDuration('idleMs', options.idleMs, DEFAULT_POOL_IDLE_MS, true);
    this.acquireTimeoutMs = checkDuration('acquireTimeoutMs', options.acquireTimeoutMs, DEFAULT_POOL_ACQUIRE_TIMEOUT_MS, false);
    INTERNALS.set(this, {
      stdio: new StdioProcesses({ maxProcesses: this.maxProcesses, idleMs: this.idleMs, acquireTimeoutMs: this.acquireTimeoutMs }),
      remotes: new SharedRemotes(),
      shareRemote: options.shareRemoteConnections !== false,
    });
  }

  /** What the pool holds now: stdio processes (and how many are busy), shared remote sessions and their users. */
  stats(): ConnectionPoolStats {
    const { stdio, remotes } = internals(this);
    return { processes: stdio.size, busyProcesses: stdio.busy, sharedConnections: remotes.size, sharedConnectionUsers: remotes.users };
  }

  /**
   * Where one host's discovery layer gets its connections through this pool (its
   * `openConnection` option): stdio entries within the process budget, Streamable HTTP entries on
   * the shared session of their connection identity (`host` gives the host's token store and
   * `fetch`, part of that identity), anything else connected on its own. `McpToolHost` calls it
   * with its `connectionPool` option.
   *
   * @throws ConnectionError `INVALID_OPTIONS` when this pool was not made by {@link createConnectionPool}.
   */
  connectionSource(host: PoolHost): OpenConnection<ConnectionClient> {
    const { stdio, remotes, shareRemote } = internals(this);
    return (request) => {
      let kind: string;
      try {
        kind = resolveTransportKind(request.serverName, request.config).kind;
      } catch {
        // connectClient reports the entry's problem.
        return connectClient(request);
      }
      if (kind === 'stdio') return stdio.open(request);
      if (kind === 'http' && shareRemote) return remotes.open(request, host);
      return connectClient(request);
    };
  }
}

/**
 * Create a {@link ConnectionPool} to share between the hosts of one process. `@toolhost/host` has
 * its own `createConnectionPool`, which makes the same pool and throws `HostError`s.
 *
 * @throws ConnectionError `INVALID_OPTIONS` for a `maxProcesses` that is not a positive whole number,
 * or an `idleMs` / `acquireTimeoutMs` that is not a positive number of milliseconds.
 * @example
 * ```ts
 * import { createConnectionPool } from '@toolhost/connection/pool';
 * import { InMemoryTokenStore } from '@toolhost/oauth';
 *
 * const pool = createConnectionPool({ maxProcesses: 20, idleMs: 5 * 60_000 });
 * // One discovery layer per user session, each with the pool as its `openConnection`:
 * // they share remote sessions and the stdio process budget.
 * const openConnection = pool.connectionSource({ tokenStore: new InMemoryTokenStore(), fetch: undefined });
 * ```
 */
export function createConnectionPool(options: ConnectionPoolOptions = {}): ConnectionPool {
  return new ConnectionPool(options);
}

function internals(pool: ConnectionPool): { stdio: StdioProcesses; remotes: SharedRemotes; shareRemote: boolean } {
  const found = INTERNALS.get(pool);
  if (!found) {
    throw new ConnectionError({ code: 'INVALID_OPTIONS', message: 'connectionPool must be made by createConnectionPool().' });
  }
  return found;
}

function checkCount(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw new ConnectionError({
    code: 'INVALID_OPTIONS',
    message: `connectionPool ${name} must be a positive whole number; got ${String(value)}.`,
  });
}

function checkDuration(name: string, value: number | undefined, fallback: number, infinite: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && value > 0 && (Number.isFinite(value) || (infinite && value === Infinity))) return value;
  throw new ConnectionError({
    code: 'INVALID_OPTIONS',
    message: `connectionPool ${name} must be a positive number of milliseconds${infinite ? ' (or Infinity)' : ''}; got ${String(value)}.`,
  });
}
