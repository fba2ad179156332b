import type { Keyv } from 'keyv';
import { Sealer, type StoresEncryption } from './encryption.js';
import { KeyvAllowListStore } from './keyv-allow-list-store.js';
import { DocumentAccess, resolveBackend, type KeyvStore } from './keyv-backend.js';
import { KeyvFolderTrustStore } from './keyv-folder-trust-store.js';
import { KeyvTaskStore } from './keyv-task-store.js';
import { KeyvTokenStore } from './keyv-token-store.js';
import { DEFAULT_LOCK_TIMING, type StoreLocks } from './locks.js';
import { StoresError } from './stores-error.js';
import { checkUserId } from './user-keys.js';

/** Options of {@link createKeyvStores}. */
export interface KeyvStoresOptions {
  /**
   * The Keyv every value goes through, created once for the process with `throwOnErrors: true`
   * (`new Keyv({ store: new KeyvRedis(url, { throwOnErrors: true }), throwOnErrors: true })`).
   * Give this or `store`.
   */
  readonly keyv?: Keyv;
  /**
   * A Keyv store adapter (or a `Map`) to build that Keyv from: `new KeyvRedis(url, { throwOnErrors: true })`,
   * `new KeyvPostgres({ uri })`, `new KeyvSqliteWasm({ path })` (`@toolhost/stores/sqlite`). The Keyv is
   * made once per adapter object, so create the adapter once and pass it for every user; keep it for
   * these stores (a Keyv sets its namespace on its adapter). Give this or `keyv`.
   */
  readonly store?: KeyvStore;
  /**
   * Whose stores these are: the user id of your server's session (any text; it is escaped into
   * the keys, so no id can reach another user's keys). Every value is kept per user.
   */
  readonly user: string;
  /** Keys to encrypt the OAuth tokens (and client registrations and DPoP keys) with. Required to store tokens unless `unencrypted`. */
  readonly encryption?: StoresEncryption;
  /** Store OAuth tokens in plain text (no `encryption`). Only for development. @default false */
  readonly unencrypted?: boolean;
  /**
   * Locks shared by every process using the backend. @default chosen from the store: Redis
   * (`@keyv/redis`) `redisLocks`, PostgreSQL (`@keyv/postgres`, needs the `pg` package)
   * `postgresLocks`, `KeyvSqliteWasm` its own lease table, a `Map` `inProcessLocks()`; any other
   * store needs this option
   */
  readonly locks?: StoreLocks;
  /** Longest wait for a lock another instance holds. @default 30000 */
  readonly lockWaitMs?: number;
  /** Lease of a Redis or SQLite lock, renewed while held (how long a crashed holder blocks others). @default 30000 */
  readonly lockTtlMs?: number;
}

/** The stores of one user, for `McpToolHost.create({ stores })`: `tokens`, `approvals`, `tasks` and `trust`. */
export interface KeyvStores {
  /** The user they belong to. */
  readonly user: string;
  /** OAuth tokens, client registrations and DPoP keys, encrypted (a `TokenStore` with `withLock`). */
  readonly tokens: KeyvTokenStore;
  /** "Always allow" approvals (an `AllowListStore` with `update`). */
  readonly approvals: KeyvAllowListStore;
  /** Folder trust and the pinned servers of trusted project folders (a `FolderTrustStore`: give it as `stores.trust`). */
  readonly trust: KeyvFolderTrustStore;
  /** Tasks the host is waiting for (a `TaskStore`). */
  readonly tasks: KeyvTaskStore;
}

/**
 * The stores of one user on a Keyv backend (Redis, PostgreSQL, SQLite, or any Keyv adapter with
 * `locks`): OAuth tokens encrypted at rest (AES-256-GCM), approvals, folder trust and tasks, all
 * under keys of that user only. Cheap: create them per request or per session; the Keyv and the
 * locks are made once per `keyv` or `store` object.
 *
 * @example
 * ```ts
 * import KeyvRedis from '@keyv/redis';
 * import { McpToolHost } from '@toolhost/host';
 * import { createKeyvStores } from '@toolhost/stores';
 *
 * const store = new KeyvRedis('redis://127.0.0.1:6379', { throwOnErrors: true }); // once per process
 * const encryption = { keys: { k1: process.env['TOOLHOST_TOKEN_KEY'] ?? '' }, current: 'k1' };
 *
 * const stores = createKeyvStores({ store, user: 'alice@example.com', encryption });
 * const host = await McpToolHost.create({ settings: { mcpServers: {} }, stores });
 * ```
 * @throws StoresError `INVALID_OPTIONS` for a missing user, a bad key, both or neither of `keyv` and `store`, a Keyv that swallows errors, or a store without known locks
 */
export function createKeyvStores(options: KeyvStoresOptions): KeyvStores {
  const user = checkUserId(options.user);
  if (options.encryption !== undefined && options.unencrypted === true) {
    throw new StoresError({
      code: 'INVALID_OPTIONS',
      user,
      message: 'createKeyvStores: give `encryption` or `unencrypted: true`, not both.',
    });
  }
  const sealer = options.encryption === undefined ? undefined : new Sealer(options.encryption);
  const backend = resolveBackend({ keyv: options.keyv, store: options.store, locks: options.locks });
  const context = {
    access: new DocumentAccess(backend, user),
    user,
    timing: {
      waitMs: checkMs(options.lockWaitMs, 'lockWaitMs') ?? DEFAULT_LOCK_TIMING.waitMs,
      ttlMs: checkMs(options.lockTtlMs, 'lockTtlMs') ?? DEFAULT_LOCK_TIMING.ttlMs,
    },
  };
  return {
    user,
    tokens: new KeyvTokenStore(context, sealer, options.unencrypted === true),
    approvals: new KeyvAllowListStore(context),
    trust: new KeyvFolderTrustStore(context),
    tasks: new KeyvTaskStore(context),
  };
}

function checkMs(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isFinite(value) || value < 0) {
    throw new StoresError({
      code: 'INVALID_OPTIONS',
      message: `createKeyvStores: \`${name}\` must be a number of milliseconds, 0 or more.`,
    });
  }
  return value;
}
