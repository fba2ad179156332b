import { startHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerManagerOptions } from './manager-types.js';
import { McpServerManager } from './mcp-server-manager.js';
import { McpServerStatus } from './server-status.js';
import { firstText, nextEvent } from './test-support.js';

const managers: McpServerManager[] = [];
const fixtures: HttpFixture[] = [];
function createManager(options: McpServerManagerOptions): McpServerManager {
  const manager = new McpServerManager(options);
  managers.push(manager);
  return manager;
}
async function fixture(options: Parameters<typeof startHttpFixture>[0]): Promise<HttpFixture> {
  const started = await startHttpFixture(options);
  fixtures.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  await Promise.all(fixtures.splice(0).map((started) => started.close()));
});

describe('remote servers on loopback', () => {
  it('discovers Streamable HTTP and SSE servers in parallel, names by settings order', async () => {
    const http = await fixture({ behaviour: 'basic' });
    const sse = await fixture({ behaviour: 'basic', transport: 'sse' });
    const paginated = await fixture({ behaviour: 'paginated', pages: 3 });
    const manager = createManager({
      servers: [
        { name: 'sse', config: { url: sse.url, type: 'sse' } },
        { name: 'http', config: { httpUrl: http.url } },
        { name: 'pages', config: { url: paginated.url, type: 'http' } },
      ],
    });
    const snapshots = await manager.discoverAll();
    expect(snapshots.map((snapshot) => [snapshot.name, snapshot.status, snapshot.transportType])).toEqual([
      ['sse', McpServerStatus.CONNECTED, 'sse'],
      ['http', McpServerStatus.CONNECTED, 'http'],
      ['pages', McpServerStatus.CONNECTED, 'http'],
    ]);
    expect(manager.tools.get('echo')?.serverName).toBe('sse');
    expect(manager.tools.get('http__echo')?.serverName).toBe('http');
    expect(manager.getServer('pages')?.tools).toHaveLength(6);
    expect(firstText(await manager.callTool('http__echo', { message: 'over http' }))).toBe('over http');
    expect(firstText(await manager.callTool('echo', { message: 'over sse' }))).toBe('over sse');
  });

  it.each([
    ['Streamable HTTP', 'streamable-http' as const, 'http' as const],
    ['SSE', 'sse' as const, 'sse' as const],
  ])('a %s server that dies mid-call fails the call at once, then is reconnected after it restarts', async (_label, transport, type) => {
    const remote = await fixture({ behaviour: 'crash', transport });
    const manager = createManager({
      reconnect: { initialDelayMs: 300, maxDelayMs: 600, maxAttempts: 10 },
      servers: [{ name: 'remote', config: { url: remote.url, type } }],
    });
    await manager.discoverAll();
    const disconnected = nextEvent(manager, 'server-status-change', (e) => e.status === McpServerStatus.DISCONNECTED);

    const started = Date.now();
    await expect(manager.callTool('crash', {})).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
      serverName: 'remote',
    });
    // At once, not when the call's timeout (10 minutes by default) runs out.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect((await disconnected).error?.code).toBe('CONNECTION_CLOSED');

    const reconnected = nextEvent(manager, 'server-status-change', (e) => e.status === McpServerStatus.CONNECTED);
    await remote.start();
    await reconnected;
    expect(firstText(await manager.callTool('echo', { message: 'again' }))).toBe('again');
  });
});
