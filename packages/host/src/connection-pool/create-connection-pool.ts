import type { ConnectionPoolOptions } from '@toolhost/connection/pool';
import { ConnectionPool } from './connection-pool.js';

/**
 * Create a {@link ConnectionPool} to share between the hosts of one process: pass it to every
 * `McpToolHost.create({ connectionPool })`. See docs/connection-pool.md for what is shared and
 * what stays per host.
 *
 * @throws HostError `INVALID_OPTIONS` for a `maxProcesses` that is not a positive whole number,
 * or an `idleMs` / `acquireTimeoutMs` that is not a positive number of milliseconds.
 * @example
 * ```ts
 * import { createConnectionPool, McpToolHost } from '@toolhost/host';
 *
 * const pool = createConnectionPool({ maxProcesses: 20, idleMs: 5 * 60_000 });
 * // One host per user session; they share remote sessions and the stdio process budget.
 * const host = await McpToolHost.create({ settings: { mcpServers: {} }, connectionPool: pool });
 * await host.close();
 * ```
 */
export function createConnectionPool(options: ConnectionPoolOptions = {}): ConnectionPool {
  return new ConnectionPool(options);
}
