// Public API of @toolhost/stores: toolhost's stores on Keyv backends (Redis, PostgreSQL, SQLite), per user, tokens encrypted.
export { createKeyvStores } from './create-keyv-stores.js';
export type { KeyvStores, KeyvStoresOptions } from './create-keyv-stores.js';
export type { KeyvStore } from './keyv-backend.js';
export { KeyvTokenStore } from './keyv-token-store.js';
export type { ReencryptResult } from './keyv-token-store.js';
export { KeyvAllowListStore } from './keyv-allow-list-store.js';
export { KeyvFolderTrustStore } from './keyv-folder-trust-store.js';
export type { FolderTrustChange, FolderTrustDecision } from './keyv-folder-trust-store.js';
export { KeyvTaskStore } from './keyv-task-store.js';
export type { SealedValue, StoresEncryption } from './encryption.js';
export { DEFAULT_LOCK_TIMING, inProcessLocks, leaseLocks, postgresLocks, redisLocks } from './locks.js';
export type { LeaseLockBackend, LockTiming, PostgresLockClient, PostgresLockPool, RedisLockClient, StoreLocks } from './locks.js';
export { StoresError } from './stores-error.js';
export type { StoresErrorCode, StoresErrorOptions } from './stores-error.js';
