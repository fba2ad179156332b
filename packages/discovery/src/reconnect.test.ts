import { startHttpFixture } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { DiscoveryError } from './discovery-error.js';
import { McpServerStatus } from './server-status.js';
import { closingManagers, firstText, nextEvent, stdioFixture } from './test-support.js';

const createManager = closingManagers();

describe('a server that goes away', () => {
  it('fails the call in flight at once, naming the server, then reconnects and rediscovers', async () => {
    const manager = createManager({
      reconnect: { initialDelayMs: 150, maxDelayMs: 1000, maxAttempts: 3 },
      servers: [{ name: 'fragile', config: stdioFixture('crash') }],
    });
    await manager.discoverAll();
    const disconnected = nextEvent(manager, 'server-status-change', (e) => e.status === McpServerStatus.DISCONNECTED);
    const reconnected = nextEvent(manager, 'server-status-change', (e) => e.status === McpServerStatus.CONNECTED);

    const started = Date.now();
    const error = await manager.callTool('crash', { afterMs: 50 }).catch((caught: unknown) => caught);
    const elapsed = Date.now() - started;

    expect(DiscoveryError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'CONNECTION_CLOSED', serverName: 'fragile' });
    expect((error as Error).message).toContain("'fragile'");
    // At once, not when the call's timeout (10 minutes by default) runs out.
    expect(elapsed).toBeLessThan(30_000);
    const down = await disconnected;
    expect(down.error?.code).toBe('CONNECTION_CLOSED');
    expect(manager.tools.size).toBe(0);
    // The crash fixture logged to stderr before exiting; the tail is kept for the status view.
    expect(manager.getServer('fragile')?.stderrTail.join('\n')).toContain('crash: going down');

    await reconnected;
    expect(manager.getServer('fragile')?.status).toBe(McpServerStatus.CONNECTED);
    expect(manager.getServer('fragile')?.lastError).toBeUndefined();
    expect(firstText(await manager.callTool('echo', { message: 'back' }))).toBe('back');
  });

  it('gives up after maxAttempts failed reconnects and says so', async () => {
    const remote = await startHttpFixture({ behaviour: 'crash' });
    try {
      const manager = createManager({
        reconnect: { initialDelayMs: 50, maxDelayMs: 100, maxAttempts: 2 },
        servers: [{ name: 'flaky', config: { httpUrl: remote.url } }],
      });
      await manager.discoverAll();
      const statuses: string[] = [];
      manager.on('server-status-change', ({ status }) => statuses.push(status));
      const gaveUp = nextEvent(manager, 'server-error', (e) => e.error.code === 'RECONNECT_GAVE_UP');
      // The HTTP fixture stops listening when it crashes and is never restarted.
      await manager.callTool('crash', {}).catch(() => undefined);
      const { error } = await gaveUp;
      expect(error.serverName).toBe('flaky');
      expect(error.message).toContain('after 2 attempts');
      expect(statuses.filter((status) => status === McpServerStatus.CONNECTING)).toHaveLength(2);
      expect(manager.getServer('flaky')?.status).toBe(McpServerStatus.DISCONNECTED);
      expect(manager.getServer('flaky')?.lastError?.code).toBe('CONNECT_FAILED');
    } finally {
      await remote.close();
    }
  });

  it('gives up on a server that crashes again after every reconnect: a short-lived connection does not reset the count', async () => {
    const manager = createManager({
      reconnect: { initialDelayMs: 50, maxDelayMs: 20_000, maxAttempts: 2 },
      servers: [{ name: 'flapping', config: stdioFixture('crash') }],
    });
    await manager.discoverAll();
    const gaveUp = nextEvent(manager, 'server-error', (e) => e.error.code === 'RECONNECT_GAVE_UP');
    for (let crash = 1; crash <= 3; crash++) {
      const reconnected = crash < 3 ? nextEvent(manager, 'server-status-change', (e) => e.status === McpServerStatus.CONNECTED) : undefined;
      await manager.callTool('crash', {}).catch(() => undefined);
      await reconnected;
    }
    const { error } = await gaveUp;
    expect(error.serverName).toBe('flapping');
    expect(error.message).toContain('after 2 attempts');
    expect(manager.getServer('flapping')?.status).toBe(McpServerStatus.DISCONNECTED);
  });

  it('reconnect(name) replaces the connection by a new one', async () => {
    const manager = createManager({ servers: [{ name: 'basic', config: stdioFixture('basic') }] });
    await manager.discoverAll();
    const pidOf = async () => (JSON.parse(firstText(await manager.callTool('cwd', {}))) as { pid: number }).pid;
    const before = await pidOf();
    const statuses: string[] = [];
    manager.on('server-status-change', ({ status }) => statuses.push(status));

    const snapshot = await manager.reconnect('basic');

    expect(snapshot.status).toBe(McpServerStatus.CONNECTED);
    expect(statuses).toEqual([
      McpServerStatus.DISCONNECTING,
      McpServerStatus.DISCONNECTED,
      McpServerStatus.CONNECTING,
      McpServerStatus.CONNECTED,
    ]);
    expect(await pidOf()).not.toBe(before);
  });
});
