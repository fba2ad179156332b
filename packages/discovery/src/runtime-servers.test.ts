import { describe, expect, it } from 'vitest';
import type { ServerSetChange } from './manager-types.js';
import { McpServerStatus } from './server-status.js';
import { closingManagers, firstText, isAlive, stdioFixture, waitFor } from './test-support.js';

const createManager = closingManagers();

/** The registered name of a server's tool. */
function toolOf(manager: ReturnType<typeof createManager>, serverName: string, originalName: string): string {
  const entry = manager.tools.list().find((tool) => tool.serverName === serverName && tool.originalName === originalName);
  if (!entry) throw new Error(`no tool ${originalName} of ${serverName}`);
  return entry.registeredName;
}

/** The pid of a connected basic fixture, from its `cwd` tool. */
async function pidOf(manager: ReturnType<typeof createManager>, serverName: string): Promise<number> {
  return (JSON.parse(firstText(await manager.callTool(toolOf(manager, serverName, 'cwd'), {}))) as { pid: number }).pid;
}

describe('McpServerManager runtime changes', () => {
  it('adds a server after discovery (connected before addServer resolves) and removes it, ending its process', async () => {
    const manager = createManager({ servers: [{ name: 'first', config: stdioFixture('basic') }] });
    await manager.discoverAll();
    const changes: ServerSetChange[] = [];
    const toolChanges: string[][] = [];
    manager.on('servers-change', (change) => changes.push(change));
    manager.on('tools-change', (diff) => toolChanges.push(diff.added.map((tool) => tool.registeredName)));

    const snapshot = await manager.addServer({ name: 'second', config: stdioFixture('basic') });
    expect(snapshot.status).toBe(McpServerStatus.CONNECTED);
    expect(
      manager.tools
        .list()
        .filter((tool) => tool.serverName === 'second')
        .map((tool) => tool.registeredName),
    ).toContain('second__echo');
    expect(toolChanges.flat()).toContain('second__echo');
    const pid = await pidOf(manager, 'second');
    expect(isAlive(pid)).toBe(true);
    await expect(manager.addServer({ name: 'second', config: stdioFixture('basic') })).rejects.toMatchObject({
      code: 'DUPLICATE_SERVER_NAME',
    });

    await manager.removeServer('second');
    expect(manager.getServer('second')).toBeUndefined();
    expect(manager.tools.list().some((tool) => tool.serverName === 'second')).toBe(false);
    await waitFor(() => !isAlive(pid));
    expect(changes).toEqual([
      { added: ['second'], removed: [], restarted: [], updated: [] },
      { added: [], removed: ['second'], restarted: [], updated: [] },
    ]);
    await expect(manager.removeServer('second')).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
  });

  it('does not connect a server added before discovery until discoverAll', async () => {
    const manager = createManager({ servers: [] });
    const snapshot = await manager.addServer({ name: 'later', config: stdioFixture('basic') });
    expect(snapshot.status).toBe(McpServerStatus.DISCONNECTED);
    await manager.discoverAll();
    expect(manager.getServer('later')?.status).toBe(McpServerStatus.CONNECTED);
  });

  it('setServers keeps unchanged servers connected, restarts changed ones, applies timeout in place, adds and removes', async () => {
    const manager = createManager({
      servers: [
        { name: 'same', config: stdioFixture('basic') },
        { name: 'changed', config: stdioFixture('basic') },
        { name: 'soft', config: stdioFixture('basic') },
        { name: 'gone', config: stdioFixture('basic') },
      ],
    });
    await manager.discoverAll();
    const pids = {
      same: await pidOf(manager, 'same'),
      changed: await pidOf(manager, 'changed'),
      soft: await pidOf(manager, 'soft'),
      gone: await pidOf(manager, 'gone'),
    };

    const change = await manager.setServers([
      { name: 'new', config: stdioFixture('basic') },
      { name: 'same', config: stdioFixture('basic') },
      { name: 'changed', config: stdioFixture('basic', {}, { env: { CHANGED: '1' } }) },
      { name: 'soft', config: stdioFixture('basic', {}, { timeout: 12_345, description: 'now described' }) },
      { name: 'off', config: stdioFixture('basic'), disabled: true },
    ]);

    expect(change).toEqual({ added: ['new', 'off'], removed: ['gone'], restarted: ['changed'], updated: ['soft'] });
    expect(manager.listServers().map((server) => [server.name, server.status])).toEqual([
      ['new', McpServerStatus.CONNECTED],
      ['same', McpServerStatus.CONNECTED],
      ['changed', McpServerStatus.CONNECTED],
      ['soft', McpServerStatus.CONNECTED],
      ['off', McpServerStatus.DISABLED],
    ]);
    expect(await pidOf(manager, 'same')).toBe(pids.same);
    expect(await pidOf(manager, 'soft')).toBe(pids.soft);
    expect(manager.getServer('soft')?.config.timeout).toBe(12_345);
    expect(await pidOf(manager, 'changed')).not.toBe(pids.changed);
    expect(JSON.parse(firstText(await manager.callTool(toolOf(manager, 'changed', 'env'), { names: ['CHANGED'] })))).toEqual({
      CHANGED: '1',
    });
    await waitFor(() => !isAlive(pids.gone) && !isAlive(pids.changed));
    // The first server in the new order keeps the bare tool names.
    expect(manager.tools.get('echo')?.serverName).toBe('new');

    // Disabling and enabling through setServers stops and starts the server.
    const samePid = pids.same;
    const disabled = await manager.setServers(
      manager.listServers().map((s) => ({ name: s.name, config: s.config, disabled: s.name !== 'new' })),
    );
    expect(disabled.restarted).toEqual(['same', 'changed', 'soft']);
    expect(manager.getServer('same')?.status).toBe(McpServerStatus.DISABLED);
    await waitFor(() => !isAlive(samePid));
    const enabled = await manager.setServers(manager.listServers().map((s) => ({ name: s.name, config: s.config })));
    expect(enabled.restarted).toEqual(['same', 'changed', 'soft', 'off']);
    expect(manager.listServers().every((server) => server.status === McpServerStatus.CONNECTED)).toBe(true);
  });

  it('refresh lists a connected server again over the same connection; restart starts a new process', async () => {
    const manager = createManager({ servers: [{ name: 'dyn', config: stdioFixture('list-changed', { silentChanges: true }) }] });
    await manager.discoverAll();
    const client = manager.getClient('dyn');
    await manager.callTool('change-tools', {});
    // The server changed its tools without notifying: the registry still has the old list.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(manager.tools.get('dynamic-0')).toBeDefined();

    const [snapshot] = await manager.refresh({ serverName: 'dyn' });
    expect(snapshot?.tools.map((tool) => tool.name)).toContain('dynamic-1');
    expect(manager.tools.get('dynamic-1')).toBeDefined();
    expect(manager.tools.get('dynamic-0')).toBeUndefined();
    expect(manager.getClient('dyn')).toBe(client);

    await manager.refresh({ restart: true });
    expect(manager.getClient('dyn')).not.toBe(client);
    // A new process starts from its first generation.
    expect(manager.tools.get('dynamic-0')).toBeDefined();
    await expect(manager.refresh({ serverName: 'nope' })).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
  });

  it('refresh connects a server that is not connected', async () => {
    const manager = createManager({ servers: [{ name: 'basic', config: stdioFixture('basic') }] });
    const [snapshot] = await manager.refresh();
    expect(snapshot?.status).toBe(McpServerStatus.CONNECTED);
  });
});
