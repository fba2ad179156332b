// The pool as a connection source, against real stdio fixtures: the process budget, eviction of
// the least recently used idle process through its request's `park`, and the options check.
// (The pool under McpToolHost, shared remote sessions included, is tested in @toolhost/host.)
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import type { McpServerConfig } from '@toolhost/config';
import { InMemoryTokenStore } from '@toolhost/oauth';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedConnection } from '../connect-client.js';
import type { ConnectionClient } from '../connection-client.js';
import { ConnectionError } from '../connection-error.js';
import { createClientFeatures } from '../create-client-features.js';
import { createConnectionPool } from './connection-pool.js';

const opened: OpenedConnection[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((connection) => connection.close()));
});

const basic: McpServerConfig = { command: process.execPath, args: [fixtureBinPath('basic')] };

function newClient(serverName: string): ConnectionClient {
  return createClientFeatures({ serverName }).createClient({ name: 'pool-test', version: '0.0.0' }).client;
}

describe('createConnectionPool', () => {
  it('keeps at most maxProcesses stdio processes: a new one takes the place of the idle one, whose owner parks it', async () => {
    const pool = createConnectionPool({ maxProcesses: 1, acquireTimeoutMs: 20_000, idleMs: 600_000 });
    const open = pool.connectionSource({ tokenStore: new InMemoryTokenStore(), fetch: undefined });
    const parked: string[] = [];
    const first = newClient('first');
    const firstConnection = await open({
      serverName: 'first',
      config: basic,
      client: first,
      timeout: 30_000,
      signal: AbortSignal.timeout(60_000),
      park: async (reason) => {
        parked.push(reason);
        await firstConnection.close();
        return true;
      },
    });
    expect(pool.stats()).toMatchObject({ processes: 1, busyProcesses: 0 });

    const second = newClient('second');
    const secondConnection = await open({
      serverName: 'second',
      config: basic,
      client: second,
      timeout: 30_000,
      signal: AbortSignal.timeout(60_000),
      park: () => Promise.resolve(false),
    });
    opened.push(secondConnection);
    expect(parked).toHaveLength(1);
    expect(parked[0]).toContain('MCP server "first" was closed by the connection pool');
    expect(parked[0]).toContain('maxProcesses 1');
    expect(pool.stats().processes).toBe(1);
    const answer = await second.sendToolCall({ name: 'echo', arguments: { message: 'pooled' } }, { timeout: 30_000 });
    expect(answer.content).toEqual([{ type: 'text', text: 'pooled' }]);
  });

  it('refuses options out of range with a ConnectionError INVALID_OPTIONS naming the option', () => {
    for (const [options, named] of [
      [{ maxProcesses: 0 }, 'maxProcesses'],
      [{ idleMs: -1 }, 'idleMs'],
      [{ acquireTimeoutMs: Infinity }, 'acquireTimeoutMs'],
    ] as const) {
      let thrown: unknown;
      try {
        createConnectionPool(options);
      } catch (error) {
        thrown = error;
      }
      expect(ConnectionError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining(`connectionPool ${named}`) });
    }
  });
});
