import { afterEach, describe, expect, it } from 'vitest';
import { DiscoveryErrorCode } from './discovery-error.js';
import { McpServerManager } from './mcp-server-manager.js';
import type { McpServerManagerOptions } from './manager-types.js';
import { DiscoveryState, McpServerStatus } from './server-status.js';
import { firstText, isAlive, stdioFixture } from './test-support.js';

const managers: McpServerManager[] = [];
function createManager(options: McpServerManagerOptions): McpServerManager {
  const manager = new McpServerManager(options);
  managers.push(manager);
  return manager;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

describe('McpServerManager discovery', () => {
  it('discovers a stdio server and goes NOT_STARTED → IN_PROGRESS → COMPLETED with events', async () => {
    const manager = createManager({ servers: [{ name: 'basic', config: stdioFixture('basic') }] });
    const states: string[] = [];
    const statuses: string[] = [];
    manager.on('discovery-state-change', ({ state }) => states.push(state));
    manager.on('server-status-change', ({ status }) => statuses.push(status));
    expect(manager.getDiscoveryState()).toBe(DiscoveryState.NOT_STARTED);

    const [snapshot] = await manager.discoverAll();

    expect(states).toEqual([DiscoveryState.IN_PROGRESS, DiscoveryState.COMPLETED]);
    expect(statuses).toEqual([McpServerStatus.CONNECTING, McpServerStatus.CONNECTED]);
    expect(snapshot?.status).toBe(McpServerStatus.CONNECTED);
    expect(snapshot?.serverInfo?.name).toBe('fixture-basic');
    expect(snapshot?.tools.map((tool) => tool.name)).toContain('echo');
    expect(snapshot?.prompts.map((prompt) => prompt.name)).toEqual(['poem-writer']);
    expect(snapshot?.resources.map((resource) => resource.uri)).toEqual(['fixture://basic/readme']);
    expect(snapshot?.resourceTemplates.map((template) => template.uriTemplate)).toEqual(['fixture://basic/items/{id}']);
    expect(manager.tools.get('echo')).toMatchObject({ serverName: 'basic', originalName: 'echo' });
    expect(manager.prompts.get('poem-writer')?.serverName).toBe('basic');
    expect(manager.findResource('fixture://basic/readme')?.serverName).toBe('basic');
    expect(manager.getClient('basic')).toBeDefined();

    const result = await manager.callTool('echo', { message: 'hello' });
    expect(firstText(result)).toBe('hello');
  });

  it('keeps servers apart: one failing or timing out does not hurt the others', async () => {
    const manager = createManager({
      servers: [
        { name: 'good', config: stdioFixture('basic') },
        { name: 'missing', config: { command: '/nonexistent/toolhost-no-such-binary' } },
        { name: 'late', config: stdioFixture('basic', { startupDelayMs: 5000 }, { timeout: 400 }) },
        { name: 'blocked', config: stdioFixture('basic'), blockedReason: 'not in mcp.allowed' },
        { name: 'off', config: stdioFixture('basic'), disabled: true },
      ],
    });
    const started = Date.now();
    const snapshots = await manager.discoverAll();
    const byName = Object.fromEntries(snapshots.map((snapshot) => [snapshot.name, snapshot]));

    expect(Date.now() - started).toBeLessThan(4500);
    expect(byName.good?.status).toBe(McpServerStatus.CONNECTED);
    expect(byName.missing?.status).toBe(McpServerStatus.DISCONNECTED);
    expect(byName.missing?.lastError?.code).toBe(DiscoveryErrorCode.CONNECT_FAILED);
    expect(byName.missing?.lastError?.message).toContain("'missing'");
    expect(byName.late?.status).toBe(McpServerStatus.DISCONNECTED);
    expect(byName.late?.lastError?.code).toBe(DiscoveryErrorCode.DISCOVERY_TIMEOUT);
    expect(byName.blocked?.status).toBe(McpServerStatus.BLOCKED);
    expect(byName.blocked?.lastError).toMatchObject({ code: 'SERVER_BLOCKED' });
    expect(byName.blocked?.lastError?.message).toContain('not in mcp.allowed');
    expect(byName.off?.status).toBe(McpServerStatus.DISABLED);
    expect(manager.getDiscoveryState()).toBe(DiscoveryState.COMPLETED);
    expect(manager.tools.list().every((tool) => tool.serverName === 'good')).toBe(true);
  });

  it('reaches COMPLETED at once when every server is blocked or disabled', async () => {
    const manager = createManager({
      servers: [
        { name: 'a', config: stdioFixture('basic'), disabled: true },
        { name: 'b', config: stdioFixture('basic'), blockedReason: 'untrusted folder' },
      ],
    });
    await manager.discoverAll();
    expect(manager.getDiscoveryState()).toBe(DiscoveryState.COMPLETED);
    expect(manager.listServers().map((server) => server.status)).toEqual([
      McpServerStatus.DISABLED,
      McpServerStatus.BLOCKED,
    ]);
  });

  it('disconnects a server that offers nothing, with a reason saying so', async () => {
    const manager = createManager({
      servers: [
        { name: 'empty', config: stdioFixture('empty') },
        { name: 'bare', config: stdioFixture('empty', { noCapabilities: true }) },
        { name: 'filtered', config: stdioFixture('crash', {}, { excludeTools: ['echo', 'crash'] }) },
      ],
    });
    const snapshots = await manager.discoverAll();
    for (const snapshot of snapshots) {
      expect(snapshot.status, snapshot.name).toBe(McpServerStatus.DISCONNECTED);
      expect(snapshot.lastError?.code, snapshot.name).toBe(DiscoveryErrorCode.NOTHING_OFFERED);
      expect(snapshot.lastError?.message).toContain('offers no tools, prompts or resources');
    }
    expect(manager.getClient('empty')).toBeUndefined();
  });

  it('applies includeTools and excludeTools (exclude wins, name(...) matches name)', async () => {
    const manager = createManager({
      servers: [
        {
          name: 'basic',
          config: stdioFixture('basic', {}, { includeTools: ['echo(hello)', 'add', 'fail'], excludeTools: ['fail'] }),
        },
      ],
    });
    const [snapshot] = await manager.discoverAll();
    expect(snapshot?.tools.map((tool) => tool.name).sort()).toEqual(['add', 'echo']);
    expect(manager.tools.list().map((tool) => tool.registeredName).sort()).toEqual(['add', 'echo']);
  });

  it('close() closes every client and leaves no child process behind', async () => {
    const manager = createManager({
      servers: [
        { name: 'one', config: stdioFixture('basic') },
        { name: 'two', config: stdioFixture('basic') },
      ],
    });
    await manager.discoverAll();
    const pids = await Promise.all(
      ['cwd', 'two__cwd'].map(async (name) => (JSON.parse(firstText(await manager.callTool(name, {}))) as { pid: number }).pid),
    );
    expect(new Set(pids).size).toBe(2);
    expect(pids.every(isAlive)).toBe(true);

    await manager.close();

    await expect.poll(() => pids.some(isAlive), { timeout: 5000 }).toBe(false);
    await expect(manager.discoverAll()).rejects.toMatchObject({ code: DiscoveryErrorCode.MANAGER_CLOSED });
    await expect(manager.callTool('cwd', {})).rejects.toMatchObject({ code: DiscoveryErrorCode.MANAGER_CLOSED });
  });

  it('rejects duplicate server names and unknown names', async () => {
    expect(
      () =>
        new McpServerManager({
          servers: [
            { name: 'x', config: stdioFixture('basic') },
            { name: 'x', config: stdioFixture('basic') },
          ],
        }),
    ).toThrow(expect.objectContaining({ code: DiscoveryErrorCode.DUPLICATE_SERVER_NAME }));
    const manager = createManager({ servers: [] });
    await expect(manager.reconnect('nope')).rejects.toMatchObject({ code: DiscoveryErrorCode.SERVER_NOT_FOUND });
    await expect(manager.callTool('nope', {})).rejects.toMatchObject({ code: DiscoveryErrorCode.TOOL_NOT_FOUND });
  });
});
