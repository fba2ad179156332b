import { execFileSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { McpServerManager } from './mcp-server-manager.js';
import { DiscoveryState, McpServerStatus } from './server-status.js';
import { closingManagers, firstText, isAlive, stdioFixture } from './test-support.js';

/** Command lines of every running process (to find a fixture child by a unique argument). */
function processArgs(): string {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
}

const createManager = closingManagers();

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
      // The late child ignores stdin while it sleeps: do not wait the default 2 s before SIGTERM.
      transportOptions: () => ({ closeGraceMs: 200 }),
      servers: [
        { name: 'good', config: stdioFixture('basic') },
        { name: 'missing', config: { command: '/nonexistent/toolhost-no-such-binary' } },
        { name: 'late', config: stdioFixture('basic', { startupDelayMs: 60_000 }, { timeout: 400 }) },
        { name: 'blocked', config: stdioFixture('basic'), blockedReason: 'not in mcp.allowed' },
        { name: 'off', config: stdioFixture('basic'), disabled: true },
      ],
    });
    const started = Date.now();
    const snapshots = await manager.discoverAll();
    const byName = Object.fromEntries(snapshots.map((snapshot) => [snapshot.name, snapshot]));

    // Not held up by the late server, which answers only after a minute (a busy machine may take
    // several seconds to start the good one).
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(byName.good?.status).toBe(McpServerStatus.CONNECTED);
    expect(byName.missing?.status).toBe(McpServerStatus.DISCONNECTED);
    expect(byName.missing?.lastError?.code).toBe('CONNECT_FAILED');
    expect(byName.missing?.lastError?.message).toContain("'missing'");
    expect(byName.late?.status).toBe(McpServerStatus.DISCONNECTED);
    expect(byName.late?.lastError?.code).toBe('DISCOVERY_TIMEOUT');
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
    expect(manager.listServers().map((server) => server.status)).toEqual([McpServerStatus.DISABLED, McpServerStatus.BLOCKED]);
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
      expect(snapshot.lastError?.code, snapshot.name).toBe('NOTHING_OFFERED');
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
    expect(
      manager.tools
        .list()
        .map((tool) => tool.registeredName)
        .sort(),
    ).toEqual(['add', 'echo']);
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

    await expect.poll(() => pids.some(isAlive)).toBe(false);
    await expect(manager.discoverAll()).rejects.toMatchObject({ code: 'CLOSED' });
    await expect(manager.callTool('cwd', {})).rejects.toMatchObject({ code: 'CLOSED' });
  });

  it('passes transport options through and keeps the stderr tail of stdio servers', async () => {
    const manager = createManager({
      transportOptions: (serverName) => ({
        env: { TOOLHOST_TEST_INHERITED: `for-${serverName}`, PATH: process.env.PATH },
        environment: { allow: ['TOOLHOST_TEST_INHERITED'] },
      }),
      servers: [
        { name: 'noisy', config: stdioFixture('stderr', { stderrLines: 3 }) },
        { name: 'basic', config: stdioFixture('basic') },
      ],
    });
    await manager.discoverAll();
    const result = await manager.callTool('env', { names: ['TOOLHOST_TEST_INHERITED'] });
    expect(JSON.parse(firstText(result))).toEqual({ TOOLHOST_TEST_INHERITED: 'for-basic' });
    await expect.poll(() => manager.getServer('noisy')?.stderrTail).toContain('stderr line 3 of 3');
  });

  it('close() during discovery settles discoverAll and stops the servers still starting', async () => {
    const marker = `sleepy-${process.pid}-${Date.now()}`;
    const created: string[] = [];
    const manager = createManager({
      createClient: (serverName) => {
        created.push(serverName);
        return new Client({ name: 'custom-host', version: '9.9.9' }, { capabilities: { roots: {} } });
      },
      transportOptions: () => ({ closeGraceMs: 200 }),
      servers: [{ name: 'sleepy', config: stdioFixture('basic', { startupDelayMs: 60_000, name: marker }) }],
    });
    const discovery = manager.discoverAll();
    await expect.poll(() => manager.getServer('sleepy')?.status).toBe(McpServerStatus.CONNECTING);
    await expect.poll(() => processArgs().includes(marker)).toBe(true);
    await manager.close();
    // close() waits for the attempt it cancelled: the child is gone when it resolves.
    expect(processArgs().includes(marker)).toBe(false);
    await expect.poll(() => processArgs().includes(marker)).toBe(false);
    const [snapshot] = await discovery;
    expect(created).toEqual(['sleepy']);
    expect(snapshot?.status).not.toBe(McpServerStatus.CONNECTED);
    expect(manager.tools.size).toBe(0);
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
    ).toThrow(expect.objectContaining({ code: 'DUPLICATE_SERVER_NAME' }));
    const manager = createManager({ servers: [] });
    await expect(manager.reconnect('nope')).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
    await expect(manager.callTool('nope', {})).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
  });
});

describe('prompts and resources through the registry', () => {
  it('gets a prompt by its registered name and reads a resource by URI', async () => {
    const manager = createManager({
      servers: [
        { name: 'a', config: stdioFixture('basic') },
        { name: 'b', config: stdioFixture('basic') },
      ],
    });
    await manager.discoverAll();
    const prompt = await manager.getPrompt('b__poem-writer', { title: 'Loopback', mood: 'calm' });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Write a calm poem called "Loopback".' });
    const resource = await manager.readResource('fixture://basic/readme', { serverName: 'b' });
    expect(resource.contents[0]).toMatchObject({ text: 'This is the basic fixture.' });
    // A template URI is not listed, but can be read from a named server.
    const item = await manager.readResource('fixture://basic/items/7', { serverName: 'a' });
    expect(item.contents[0]).toMatchObject({ text: 'item 7' });
    await expect(manager.readResource('fixture://nowhere')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    await expect(manager.getPrompt('nope', {})).rejects.toMatchObject({ code: 'PROMPT_NOT_FOUND' });
    await expect(manager.readResource('fixture://x', { serverName: 'zzz' })).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
    });
  });
});
