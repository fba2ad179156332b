import { createHash, randomUUID } from 'node:crypto';
import { describeError, StoresError } from './stores-error.js';

/** How long to wait for a lock, and how long a lease lasts. */
export interface LockTiming {
  /** Longest wait for the lock before failing with `STORE_LOCK_TIMEOUT`. @default 30000 */
  readonly waitMs?: number;
  /**
   * Lease of a Redis or SQLite lock: renewed every third of it while the work runs, so a lock
   * outlives its holder (a crashed process) by at most this long. PostgreSQL advisory locks end
   * with the holder's connection instead. @default 30000
   */
  readonly ttlMs?: number;
}

/**
 * Locks shared by every process that uses the same backend: `withLock` runs `work` while no
 * other holder of `lockId` runs (in this process or any other). Not reentrant: taking a lock
 * again inside its own work waits for itself until `waitMs` ends. `createKeyvStores` picks the
 * locks of the backend it is given; pass your own for another backend.
 */
export interface StoreLocks {
  /**
   * Runs `work` holding the lock `lockId`. @throws StoresError `STORE_LOCK_TIMEOUT` when the
   * lock stays taken for `timing.waitMs`, `STORE_FAILED` when the backend fails
   */
  withLock<T>(lockId: string, work: () => Promise<T>, timing?: LockTiming): Promise<T>;
  /** Gives back what the locks hold open (connections); nothing else may be locked afterwards. */
  close?(): Promise<void>;
}

/** The default `waitMs` and `ttlMs` of {@link LockTiming}. */
export const DEFAULT_LOCK_TIMING = { waitMs: 30_000, ttlMs: 30_000 } as const;

function lockTimeout(lockId: string, waitMs: number, where: string): StoresError {
  return new StoresError({
    code: 'STORE_LOCK_TIMEOUT',
    lockName: lockId,
    message: `The lock "${lockId}" (${where}) was still held by another instance after ${waitMs} ms of waiting. It is released when its holder finishes (a crashed holder's ${where === 'PostgreSQL advisory lock' ? 'connection ends' : 'lease expires'}); try again, or give the work a longer \`lockWaitMs\`.`,
  });
}

function lockFailure(lockId: string, where: string, error: unknown): StoresError {
  return new StoresError({
    code: 'STORE_FAILED',
    lockName: lockId,
    cause: error,
    message: `Could not take the lock "${lockId}" (${where}): ${describeError(error)}. Check that the store is reachable.`,
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Backoff between two attempts: 20 ms doubling to 500 ms, with jitter, never past the deadline. */
function nextDelay(attempt: number, deadline: number): number {
  const base = Math.min(500, 20 * 2 ** attempt);
  return Math.max(0, Math.min(base / 2 + Math.random() * (base / 2), deadline - Date.now()));
}

/**
 * Locks that exclude only within this process: right for a store only this process uses (an
 * in-memory `Map`), wrong for a store several processes share.
 */
export function inProcessLocks(): StoreLocks {
  const tails = new Map<string, Promise<void>>();
  return {
    async withLock<T>(lockId: string, work: () => Promise<T>, timing: LockTiming = {}): Promise<T> {
      const waitMs = timing.waitMs ?? DEFAULT_LOCK_TIMING.waitMs;
      const previous = tails.get(lockId) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const tail = previous.then(() => mine);
      tails.set(lockId, tail);
      try {
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          previous.then(() => false),
          new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), waitMs))),
        ]);
        clearTimeout(timer);
        if (timedOut) throw lockTimeout(lockId, waitMs, 'lock of this process');
        return await work();
      } finally {
        release();
        if (tails.get(lockId) === tail) tails.delete(lockId);
      }
    },
  };
}

/** The three steps of a lease lock (a value with an expiry, owned by a random token). */
export interface LeaseLockBackend {
  /** Describes the backend in errors (`Redis lock`). */
  readonly where: string;
  /** Take the lease when it is free or expired; true when taken. */
  tryAcquire(lockId: string, token: string, ttlMs: number): Promise<boolean>;
  /** Extend the lease when `token` still owns it; false when it was lost. */
  renew(lockId: string, token: string, ttlMs: number): Promise<boolean>;
  /** Drop the lease when `token` still owns it. */
  release(lockId: string, token: string): Promise<void>;
}

/**
 * Locks over a {@link LeaseLockBackend}: wait (with backoff) up to `waitMs` for the lease, renew it
 * every third of `ttlMs` while the work runs, release it after (only when still owned).
 */
export function leaseLocks(backend: LeaseLockBackend): StoreLocks {
  return {
    async withLock<T>(lockId: string, work: () => Promise<T>, timing: LockTiming = {}): Promise<T> {
      const waitMs = timing.waitMs ?? DEFAULT_LOCK_TIMING.waitMs;
      const ttlMs = Math.max(1_000, timing.ttlMs ?? DEFAULT_LOCK_TIMING.ttlMs);
      const token = randomUUID();
      const deadline = Date.now() + waitMs;
      for (let attempt = 0; ; attempt++) {
        let taken: boolean;
        try {
          taken = await backend.tryAcquire(lockId, token, ttlMs);
        } catch (error) {
          throw lockFailure(lockId, backend.where, error);
        }
        if (taken) break;
        if (Date.now() >= deadline) throw lockTimeout(lockId, waitMs, backend.where);
        await sleep(nextDelay(attempt, deadline));
      }
      const renewal = setInterval(
        () => {
          backend.renew(lockId, token, ttlMs).then(
            (owned) => owned || clearInterval(renewal),
            () => undefined, // a failed renewal is retried on the next tick; the lease may lapse
          );
        },
        Math.floor(ttlMs / 3),
      );
      renewal.unref();
      try {
        return await work();
      } finally {
        clearInterval(renewal);
        // A release that fails leaves the lease to expire after ttlMs; the work's outcome stands.
        await backend.release(lockId, token).catch(() => undefined);
      }
    },
  };
}

/**
 * The commands of a Redis client that the locks use (node-redis 4 and 5, as `@keyv/redis` uses):
 * `SET key value NX PX ttl` and `EVAL`.
 */
export interface RedisLockClient {
  /** `SET` with options. */
  set(key: string, value: string, options: { condition: 'NX'; expiration: { type: 'PX'; value: number } }): Promise<unknown>;
  /** `EVAL` of a Lua script. */
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
}

const RENEW_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE_SCRIPT = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * Locks on Redis: `SET <lockId> <random token> NX PX <ttl>`, renewed while held, released by a
 * Lua compare-and-delete (so an expired holder never deletes its successor's lock). One Redis
 * (or a cluster) is the single source of truth; for a set of independent Redis masters use a
 * Redlock library instead.
 *
 * @param client A connected node-redis client, or a function returning one (`() => keyvRedis.getClient()`).
 */
export function redisLocks(client: RedisLockClient | (() => Promise<RedisLockClient>)): StoreLocks {
  const connected = (): Promise<RedisLockClient> => (typeof client === 'function' ? client() : Promise.resolve(client));
  return leaseLocks({
    where: 'Redis lock',
    async tryAcquire(lockId, token, ttlMs) {
      const answer = await (await connected()).set(lockId, token, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
      return answer === 'OK';
    },
    async renew(lockId, token, ttlMs) {
      return Number(await (await connected()).eval(RENEW_SCRIPT, { keys: [lockId], arguments: [token, String(ttlMs)] })) === 1;
    },
    async release(lockId, token) {
      await (await connected()).eval(RELEASE_SCRIPT, { keys: [lockId], arguments: [token] });
    },
  });
}

/** One connection of a PostgreSQL pool (`pg.PoolClient`), as the locks use it. */
export interface PostgresLockClient {
  /** Runs a query. */
  query(sql: string, values?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
  /** Gives the connection back; with an error, the pool closes it (which ends its advisory locks). */
  release(error?: Error | boolean): void;
}

/** A PostgreSQL pool (`pg.Pool`), as the locks use it. */
export interface PostgresLockPool {
  /** Checks out a connection. */
  connect(): Promise<PostgresLockClient>;
  /** Closes every connection. */
  end(): Promise<void>;
}

/**
 * Locks on PostgreSQL: session advisory locks (`pg_try_advisory_lock`) on a connection checked
 * out of `pool` for as long as the work runs, so a holder that dies (its connection ends) frees
 * its locks at once. The 64-bit lock key is the SHA-256 of the lock id (a collision only makes
 * two locks one). Each lock held uses one connection of the pool.
 *
 * @param pool A `pg.Pool` (or a function creating it on first use), e.g. `new pg.Pool({ connectionString })`.
 */
export function postgresLocks(pool: PostgresLockPool | (() => Promise<PostgresLockPool>)): StoreLocks {
  let created: Promise<PostgresLockPool> | undefined;
  const getPool = (): Promise<PostgresLockPool> => (created ??= typeof pool === 'function' ? pool() : Promise.resolve(pool));
  const where = 'PostgreSQL advisory lock';
  return {
    async withLock<T>(lockId: string, work: () => Promise<T>, timing: LockTiming = {}): Promise<T> {
      const waitMs = timing.waitMs ?? DEFAULT_LOCK_TIMING.waitMs;
      const deadline = Date.now() + waitMs;
      const digest = createHash('sha256').update(lockId, 'utf8').digest();
      const key = [digest.readInt32BE(0), digest.readInt32BE(4)];
      let connection: PostgresLockClient;
      try {
        connection = await (await getPool()).connect();
      } catch (error) {
        throw lockFailure(lockId, where, error);
      }
      try {
        for (let attempt = 0; ; attempt++) {
          const { rows } = await connection.query('SELECT pg_try_advisory_lock($1::int4, $2::int4) AS locked', key);
          if (rows[0]?.['locked'] === true) break;
          if (Date.now() >= deadline) throw lockTimeout(lockId, waitMs, where);
          await sleep(nextDelay(attempt, deadline));
        }
      } catch (error) {
        connection.release();
        throw StoresError.isInstance(error) ? error : lockFailure(lockId, where, error);
      }
      try {
        return await work();
      } finally {
        try {
          await connection.query('SELECT pg_advisory_unlock($1::int4, $2::int4)', key);
          connection.release();
        } catch (error) {
          // Closing the connection ends its session, and with it the lock.
          connection.release(error instanceof Error ? error : true);
        }
      }
    },
    async close() {
      if (created) await (await created).end();
    },
  };
}
