import { Keyv, type KeyvStoreAdapter } from 'keyv';
import { inProcessLocks, postgresLocks, redisLocks, type PostgresLockPool, type RedisLockClient, type StoreLocks } from './locks.js';
import { describeError, StoresError } from './stores-error.js';

/** A Keyv store adapter, or a `Map` (Keyv's in-memory store). */
export type KeyvStore = KeyvStoreAdapter | Map<unknown, unknown>;

/** The Keyv of a store, the locks of its backend, and checked reads and writes. */
export interface Backend {
  /** The Keyv every value goes through. */
  readonly keyv: Keyv;
  /** Locks shared by every process using the backend. */
  readonly locks: StoreLocks;
  /** Prefix of lock ids (the Keyv namespace), so two applications on one backend do not share locks. */
  readonly lockPrefix: string;
  /** What the backend is, for messages (`redis`, `postgres`, `sqlite`, `memory`, `keyv`). */
  readonly kind: string;
}

const backends = new WeakMap<object, Backend>();

/**
 * The backend of `keyv` or `store` (exactly one), created once per Keyv or store object so that
 * stores created for many users share one Keyv and one set of locks (`locks`, when given,
 * replaces the backend's own).
 * @throws StoresError `INVALID_OPTIONS`
 */
export function resolveBackend(options: {
  keyv?: Keyv | undefined;
  store?: KeyvStore | undefined;
  locks?: StoreLocks | undefined;
}): Backend {
  if ((options.keyv === undefined) === (options.store === undefined)) {
    throw invalid(
      'give exactly one of `keyv` (a Keyv created with `throwOnErrors: true`) and `store` (a Keyv store adapter such as `new KeyvRedis(url, { throwOnErrors: true })`).',
    );
  }
  const owner = (options.keyv ?? options.store) as object;
  let backend = backends.get(owner);
  if (backend === undefined) {
    backend = createBackend(options.keyv, options.store, options.locks);
    backends.set(owner, backend);
  }
  return options.locks === undefined || options.locks === backend.locks ? backend : { ...backend, locks: options.locks };
}

function createBackend(givenKeyv: Keyv | undefined, givenStore: KeyvStore | undefined, givenLocks: StoreLocks | undefined): Backend {
  let keyv: Keyv;
  if (givenKeyv !== undefined) {
    keyv = givenKeyv;
    if (typeof keyv.get !== 'function' || typeof keyv.set !== 'function') throw invalid('`keyv` must be a Keyv instance (keyv 5).');
    if (keyv.throwOnErrors !== true) {
      throw invalid(
        '`keyv` must be created with `throwOnErrors: true`: otherwise Keyv turns a failed read into "nothing stored", and the next write would replace what the store holds. Create it with `new Keyv({ store, throwOnErrors: true })`, or pass the adapter as `store`.',
      );
    }
  } else {
    keyv = new Keyv({ store: givenStore, throwOnErrors: true });
  }
  const store = keyv.store as unknown;
  const kind = storeKind(store);
  if (typeof store === 'object' && store !== null && (store as { throwOnErrors?: unknown }).throwOnErrors === false) {
    throw invalid(
      `the Keyv ${kind} adapter swallows its errors (its \`throwOnErrors\` is false): a failed read would look like an empty store. Create it with \`throwOnErrors: true\`${kind === 'redis' ? ', e.g. `new KeyvRedis(url, { throwOnErrors: true })`' : ''}.`,
    );
  }
  return { keyv, locks: givenLocks ?? locksFor(store, kind), lockPrefix: `${keyv.namespace ?? 'keyv'}:`, kind };
}

function storeKind(store: unknown): string {
  if (store instanceof Map) return 'memory';
  const dialect = (store as { opts?: { dialect?: unknown } } | null)?.opts?.dialect;
  return typeof dialect === 'string' ? dialect : 'keyv';
}

/** The locks a known adapter supports; an unknown one needs `locks`. */
function locksFor(store: unknown, kind: string): StoreLocks {
  if (store instanceof Map) return inProcessLocks();
  const candidate = store as {
    locks?: unknown;
    getClient?: () => Promise<unknown>;
    opts?: { uri?: unknown; [option: string]: unknown };
  };
  if (isStoreLocks(candidate.locks)) return candidate.locks;
  if (kind === 'redis' && typeof candidate.getClient === 'function') {
    const getClient = candidate.getClient.bind(candidate) as () => Promise<RedisLockClient>;
    return redisLocks(getClient);
  }
  if (kind === 'postgres' && typeof candidate.opts?.uri === 'string') {
    const poolOptions = { ...candidate.opts, connectionString: candidate.opts.uri, allowExitOnIdle: true };
    return postgresLocks(async () => {
      const pg = await importPg();
      return new pg.Pool(poolOptions);
    });
  }
  throw invalid(
    `no lock shared across processes is known for this Keyv store (${kind}); the stores need one to change a document without losing another instance's change. Pass \`locks\`: \`redisLocks(client)\`, \`postgresLocks(pool)\`, or \`inProcessLocks()\` when only this process uses the store.`,
  );
}

function isStoreLocks(value: unknown): value is StoreLocks {
  return typeof value === 'object' && value !== null && typeof (value as StoreLocks).withLock === 'function';
}

/** `pg`, loaded only for PostgreSQL stores (an optional peer dependency, like `@keyv/postgres`'s own). */
async function importPg(): Promise<{ Pool: new (options: Record<string, unknown>) => PostgresLockPool }> {
  const specifier = 'pg';
  try {
    const module = (await import(specifier)) as { default?: unknown; Pool?: unknown };
    const pg = (module.Pool !== undefined ? module : module.default) as {
      Pool: new (options: Record<string, unknown>) => PostgresLockPool;
    };
    return pg;
  } catch (error) {
    throw new StoresError({
      code: 'INVALID_OPTIONS',
      cause: error,
      message: `The PostgreSQL locks of @toolhost/stores need the package "pg" (${describeError(error)}). Install it next to @keyv/postgres (\`npm install pg\`), or pass \`locks: postgresLocks(pool)\`.`,
    });
  }
}

function invalid(detail: string): StoresError {
  return new StoresError({ code: 'INVALID_OPTIONS', message: `createKeyvStores: ${detail}` });
}

/** Checked reads and writes of one user's documents: a failing backend is a `STORE_FAILED` naming the user and the document. */
export class DocumentAccess {
  readonly #backend: Backend;
  /** The user. */
  readonly user: string;

  /** Read and write `user`'s documents on `backend`. */
  constructor(backend: Backend, user: string) {
    this.#backend = backend;
    this.user = user;
  }

  /** The stored value of `key`, or `undefined`. */
  async read(key: string, what: string): Promise<unknown> {
    try {
      return (await this.#backend.keyv.get(key)) as unknown;
    } catch (error) {
      throw this.#failure('read', what, error);
    }
  }

  /** Store `value` under `key`, without expiry. */
  async write(key: string, value: unknown, what: string): Promise<void> {
    let stored: boolean;
    try {
      stored = await this.#backend.keyv.set(key, value, 0);
    } catch (error) {
      throw this.#failure('write', what, error);
    }
    if (stored === false) throw this.#failure('write', what, new Error('the store did not take the value'));
  }

  /** Delete `key`. */
  async remove(key: string, what: string): Promise<void> {
    try {
      await this.#backend.keyv.delete(key);
    } catch (error) {
      throw this.#failure('delete', what, error);
    }
  }

  /** Run `work` holding the lock `lockId` of this backend. */
  withLock<T>(lockId: string, work: () => Promise<T>, timing: { waitMs: number; ttlMs: number }): Promise<T> {
    return this.#backend.locks.withLock(`${this.#backend.lockPrefix}${lockId}`, work, timing);
  }

  #failure(action: string, what: string, error: unknown): StoresError {
    return new StoresError({
      code: 'STORE_FAILED',
      user: this.user,
      cause: error,
      message: `Could not ${action} the ${what} of user "${this.user}" in the ${this.#backend.kind} store: ${describeError(error)}. Check that the store is reachable${action === 'read' ? '' : ', then try again'}.`,
    });
  }
}
