import { ConnectionPool as SharedConnectionPool, type ConnectionPoolOptions } from '@toolhost/connection/pool';
import { hostErrorFrom } from '../host-error-from.js';

/**
 * Connections shared by several `McpToolHost`s of one process (one host per user session in a web
 * backend): the pool of `@toolhost/connection/pool`, whose options check throws a `HostError`.
 * Create one with {@link createConnectionPool} and pass it to every
 * `McpToolHost.create({ connectionPool })`; see docs/connection-pool.md for what is shared (remote
 * Streamable HTTP sessions of the same connection identity, the budget of stdio processes) and
 * what stays per host.
 */
export class ConnectionPool extends SharedConnectionPool {
  /**
   * Use {@link createConnectionPool}.
   *
   * @throws HostError `INVALID_OPTIONS` for a `maxProcesses` that is not a positive whole number,
   * or an `idleMs` / `acquireTimeoutMs` that is not a positive number of milliseconds.
   */
  constructor(options: ConnectionPoolOptions = {}) {
    try {
      super(options);
    } catch (error) {
      throw hostErrorFrom(error);
    }
  }
}
