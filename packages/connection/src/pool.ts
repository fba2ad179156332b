// Public API of @toolhost/connection/pool: connections shared by several hosts of one process.
export {
  ConnectionPool,
  createConnectionPool,
  DEFAULT_POOL_ACQUIRE_TIMEOUT_MS,
  DEFAULT_POOL_IDLE_MS,
  DEFAULT_POOL_MAX_PROCESSES,
} from './pool/connection-pool.js';
export type { ConnectionPoolOptions, ConnectionPoolStats } from './pool/connection-pool.js';
export type { PoolHost } from './pool/shared-remotes.js';
