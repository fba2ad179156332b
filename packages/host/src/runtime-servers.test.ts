// Runtime changes of the servers through McpToolHost: add/remove, reload, watchSettings,
// /mcp refresh, /mcp reload, /mcp enable and /mcp disable, against real stdio fixture servers and
// real settings files in temporary folders.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { trustFolder, writeFileAtomic, type McpServerConfig } from '@toolhost/config';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostEvents, HostWarning } from './host-events.js';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer } from './test-support.js';

const dirs: string[] = [];
const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolhost-runtime-'));
  dirs.push(dir);
  return dir;
}

async function createHost(options: Parameters<typeof McpToolHost.create>[0]): Promise<McpToolHost> {
  const host = await McpToolHost.create(options);
  hosts.push(host);
  return host;
}

/** Poll until `check` holds; fails the test after `timeoutMs`. */
async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Date.now() - started;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function statusOf(host: McpToolHost, name: string): string | undefined {
  return host.servers.list().find((server) => server.name === name)?.status;
}

/** The pid of a connected basic fixture (its `cwd` tool answers it). */
async function pidOf(host: McpToolHost, serverName: string): Promise<number> {
  const tool = host.servers.listTools({ serverName }).find((candidate) => candidate.originalName === 'cwd');
  if (!tool) throw new Error(`server ${serverName} has no cwd tool registered`);
  const result = await host.callTool({ name: tool.name });
  const part = result.parts[0];
  if (part?.type !== 'text') throw new Error(`cwd of ${serverName} failed: ${JSON.stringify(result.parts)}`);
  return (JSON.parse(part.text) as { pid: number }).pid;
}

const basic = (extra: Partial<McpServerConfig> = {}): McpServerConfig => fixtureServer('basic', { trust: true, ...extra });

async function writeSettings(folder: string, servers: Record<string, McpServerConfig>): Promise<string> {
  const file = join(folder, '.myapp', 'settings.json');
  await mkdir(join(folder, '.myapp'), { recursive: true });
  await writeFileAtomic(file, JSON.stringify({ mcpServers: servers }, null, 2));
  return file;
}

function record<K extends keyof HostEvents>(host: McpToolHost, event: K): HostEvents[K][] {
  const seen: HostEvents[K][] = [];
  host.on(event, (payload) => seen.push(payload));
  return seen;
}

describe('McpToolHost runtime changes: add and remove', () => {
  it('adds a server at runtime (its tools appear) and removes it (tools gone, process ended)', async () => {
    const host = await createHost({ settings: { mcpServers: { first: basic() } } });
    await host.discover();
    const registry = record(host, 'registry-change');
    const changes = record(host, 'servers-change');

    const view = await host.servers.add({ serverName: 'second', config: basic() });
    expect(view.status).toBe('CONNECTED');
    expect(host.servers.listTools({ serverName: 'second' }).map((tool) => tool.name)).toContain('second__echo');
    expect(registry.some((event) => event.kind === 'tools')).toBe(true);
    const echo = await host.callTool({ name: 'second__echo', arguments: { message: 'hi' } });
    expect(echo.parts[0]).toEqual({ type: 'text', text: 'hi' });
    const pid = await pidOf(host, 'second');

    await host.servers.remove({ serverName: 'second' });
    expect(host.servers.list().map((server) => server.name)).toEqual(['first']);
    expect(host.servers.listTools({ serverName: 'second' })).toEqual([]);
    await waitFor('the removed server process ends', () => !isAlive(pid));
    expect(changes).toEqual([
      { added: ['second'], removed: [], restarted: [], updated: [] },
      { added: [], removed: ['second'], restarted: [], updated: [] },
    ]);
  });

  it('refuses a duplicate name, an invalid entry and an unknown server, saying what to do', async () => {
    const host = await createHost({ settings: { mcpServers: { first: basic() } } });
    await expect(host.servers.add({ serverName: 'first', config: basic() })).rejects.toMatchObject({
      code: 'DUPLICATE_SERVER_NAME',
      serverName: 'first',
    });
    await expect(host.servers.add({ serverName: 'bad', config: { args: ['x'] } })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
      serverName: 'bad',
      message: expect.stringContaining('"bad"'),
    });
    await expect(host.servers.add({ serverName: 'bad', config: { command: 'x', timeout: -1 } })).rejects.toMatchObject({
      code: 'INVALID_CONFIG',
    });
    await expect(host.servers.remove({ serverName: 'nope' })).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
    await expect(host.servers.refresh({ serverName: 'nope' })).rejects.toMatchObject({ code: 'SERVER_NOT_FOUND' });
  });

  it('applies mcp.excluded to a server added at runtime', async () => {
    const host = await createHost({ settings: { mcpServers: {}, mcp: { excluded: ['Blocked'] } } });
    await host.discover();
    const view = await host.servers.add({ serverName: 'blocked', config: basic() });
    expect([view.status, view.errorCode]).toEqual(['BLOCKED', 'EXCLUDED']);
  });
});

describe('McpToolHost runtime changes: reload and watchSettings', () => {
  it('with watchSettings, picks up an added, a changed and a removed server; an unchanged one keeps its process', async () => {
    const home = await tempDir();
    const file = await writeSettings(home, { keep: basic(), change: basic() });
    const host = await createHost({ appDir: '.myapp', homeDir: home, watchSettings: true });
    await host.discover();
    const keepPid = await pidOf(host, 'keep');
    const changePid = await pidOf(host, 'change');
    const changes = record(host, 'servers-change');

    await writeSettings(home, { keep: basic(), change: basic({ env: { CHANGED: 'yes' } }), added: basic() });
    const took = await waitFor('the added server connects', () => statusOf(host, 'added') === 'CONNECTED');
    await waitFor('the changed server reconnects', () => statusOf(host, 'change') === 'CONNECTED' && changes.length > 0);
    // Seen through the watch, then connected (a busy machine is slow to start a server); a host
    // that missed the change would never connect it.
    expect(took).toBeLessThan(30_000);
    expect(changes[0]).toEqual({ added: ['added'], removed: [], restarted: ['change'], updated: [] });
    expect(await pidOf(host, 'keep')).toBe(keepPid);
    expect(await pidOf(host, 'change')).not.toBe(changePid);
    await waitFor('the old process of the changed server ends', () => !isAlive(changePid));
    const env = await host.callTool({
      name: host.servers.listTools({ serverName: 'change' }).find((t) => t.originalName === 'env')!.name,
      arguments: { names: ['CHANGED'] },
    });
    expect(env.parts[0]).toEqual({ type: 'text', text: JSON.stringify({ CHANGED: 'yes' }) });

    const addedPid = await pidOf(host, 'added');
    await writeFile(file, JSON.stringify({ mcpServers: { keep: basic() } }));
    await waitFor('the removed servers go', () => host.servers.list().length === 1);
    await waitFor('their processes end', () => !isAlive(addedPid));
    expect(await pidOf(host, 'keep')).toBe(keepPid);
  });

  it('keeps the last good settings while a file is malformed, with a warning naming it; applies the fix', async () => {
    const home = await tempDir();
    const file = await writeSettings(home, { one: basic(), two: basic() });
    const host = await createHost({ appDir: '.myapp', homeDir: home, watchSettings: { debounceMs: 50 } });
    await host.discover();
    const pids = [await pidOf(host, 'one'), await pidOf(host, 'two')];
    const warnings: HostWarning[] = record(host, 'warning');

    // An edit in progress: the file is not valid JSON.
    await writeFile(file, '{ "mcpServers": { "one": { "command": ');
    await waitFor('a warning naming the file', () => warnings.some((warning) => warning.filePath === file));
    const warning = warnings.find((candidate) => candidate.filePath === file);
    expect(warning?.code).toBe('FILE_MALFORMED');
    expect(warning?.message).toContain(file);
    expect(warning?.message).toContain('not reloaded');
    expect(host.servers.status().warnings.some((candidate) => candidate.filePath === file)).toBe(true);
    expect(host.servers.list().map((server) => [server.name, server.status])).toEqual([
      ['one', 'CONNECTED'],
      ['two', 'CONNECTED'],
    ]);
    expect([await pidOf(host, 'one'), await pidOf(host, 'two')]).toEqual(pids);
    // The same through /mcp reload: nothing is applied, and the text says why.
    const reload = await host.commands.run({ line: '/mcp reload' });
    expect(reload.kind === 'text' && reload.text).toContain('not reloaded');

    // An entry with an error keeps its previous settings.
    await writeFile(file, JSON.stringify({ mcpServers: { one: basic(), two: { ...basic(), args: 'not-a-list' } } }));
    await waitFor('the malformed-file warning clears', () => !host.servers.status().warnings.some((w) => w.code === 'FILE_MALFORMED'));
    expect(statusOf(host, 'two')).toBe('CONNECTED');
    expect(await pidOf(host, 'two')).toBe(pids[1]);
    expect(host.servers.status().warnings.find((w) => w.serverName === 'two')?.message).toContain('previous settings');

    await writeFile(file, JSON.stringify({ mcpServers: { one: basic() } }));
    await waitFor('the fixed file is applied', () => host.servers.list().length === 1);
    expect(await pidOf(host, 'one')).toBe(pids[0]);
  });

  it('sees a project settings folder created and deleted while watching', async () => {
    const home = await tempDir();
    const project = await tempDir();
    const host = await createHost({ appDir: '.myapp', homeDir: home, projectDir: project, trustProject: true, watchSettings: true });
    await host.discover();
    expect(host.servers.list()).toEqual([]);

    await writeSettings(project, { fromProject: basic() });
    await waitFor('the project server connects', () => statusOf(host, 'fromProject') === 'CONNECTED');
    const pid = await pidOf(host, 'fromProject');

    await rm(join(project, '.myapp'), { recursive: true });
    await waitFor('the project server goes', () => host.servers.list().length === 0);
    await waitFor('its process ends', () => !isAlive(pid));

    // Created again after the deletion: still watched.
    await writeSettings(project, { again: basic() });
    await waitFor('the new project server connects', () => statusOf(host, 'again') === 'CONNECTED');
  });

  it('never runs a project server whose entry changed since the folder was trusted (CHANGED_SINCE_TRUSTED)', async () => {
    const home = await tempDir();
    const project = await tempDir();
    await writeSettings(project, { pinned: basic() });
    await trustFolder({ appDir: '.myapp', homeDir: home, folder: project });
    const host = await createHost({ appDir: '.myapp', homeDir: home, projectDir: project, watchSettings: true });
    await host.discover();
    expect(statusOf(host, 'pinned')).toBe('CONNECTED');
    const pid = await pidOf(host, 'pinned');

    const marker = join(project, 'ran.txt');
    const evil: McpServerConfig = {
      command: process.execPath,
      args: ['-e', `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`],
      trust: true,
    };
    await writeSettings(project, { pinned: evil, added: evil });
    await waitFor('the changed server is blocked', () => statusOf(host, 'pinned') === 'BLOCKED' && statusOf(host, 'added') === 'BLOCKED');
    const pinned = host.servers.list().find((server) => server.name === 'pinned');
    expect(pinned?.errorCode).toBe('CHANGED_SINCE_TRUSTED');
    expect(host.servers.list().find((server) => server.name === 'added')?.errorCode).toBe('CHANGED_SINCE_TRUSTED');
    await waitFor('the old process ends', () => !isAlive(pid));
    // Neither an explicit reload, a refresh nor enabling it starts the changed command.
    await host.servers.reload();
    await host.servers.refresh({ restart: true });
    await expect(host.servers.enable({ serverName: 'pinned', session: true })).rejects.toMatchObject({ code: 'SERVER_BLOCKED' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(existsSync(marker)).toBe(false);

    // Trusting the folder again (the store is watched too) lets the new entries run.
    await trustFolder({ appDir: '.myapp', homeDir: home, folder: project });
    await waitFor('the re-trusted server is no longer blocked', () => statusOf(host, 'pinned') !== 'BLOCKED');
  });

  it('/mcp reload reads the settings again without a watch, and keeps unchanged servers connected', async () => {
    const home = await tempDir();
    await writeSettings(home, { keep: basic() });
    const host = await createHost({ appDir: '.myapp', homeDir: home });
    await host.discover();
    const pid = await pidOf(host, 'keep');
    await writeSettings(home, { keep: basic(), fresh: basic() });
    // No watch: nothing changes until asked.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(statusOf(host, 'fresh')).toBeUndefined();

    const result = await host.commands.run({ line: '/mcp reload' });
    expect(result.kind === 'text' && result.text).toContain('Reloaded the MCP settings: added "fresh".');
    expect(statusOf(host, 'fresh')).toBe('CONNECTED');
    expect(await pidOf(host, 'keep')).toBe(pid);
    const again = await host.servers.reload();
    expect(again).toMatchObject({ applied: true, added: [], removed: [], restarted: [], updated: [] });
  });
});

describe('McpToolHost runtime changes: /mcp enable, /mcp disable, /mcp refresh', () => {
  it('/mcp disable saves Gemini CLI format and disconnects; /mcp enable removes the record and reconnects', async () => {
    const home = await tempDir();
    await writeSettings(home, { MyServer: basic(), other: basic() });
    const enablementFile = join(home, '.myapp', 'mcp-server-enablement.json');
    const host = await createHost({ appDir: '.myapp', homeDir: home });
    await host.discover();
    const pid = await pidOf(host, 'MyServer');

    const disabled = await host.commands.run({ line: '/mcp disable myserver' });
    expect(disabled.kind === 'text' && disabled.text).toBe("MCP server 'MyServer' disabled. It is now DISABLED.");
    expect(JSON.parse(await readFile(enablementFile, 'utf8'))).toEqual({ myserver: { enabled: false } });
    expect(statusOf(host, 'MyServer')).toBe('DISABLED');
    expect(host.servers.listTools({ serverName: 'MyServer' })).toEqual([]);
    await waitFor('the disabled server process ends', () => !isAlive(pid));

    // A new host reads the file: the server stays off.
    const second = await createHost({ appDir: '.myapp', homeDir: home });
    expect(statusOf(second, 'MyServer')).toBe('DISABLED');

    const enabled = await host.commands.run({ line: '/mcp enable MyServer' });
    expect(enabled.kind === 'text' && enabled.text).toBe("MCP server 'MyServer' enabled. It is now CONNECTED.");
    expect(JSON.parse(await readFile(enablementFile, 'utf8'))).toEqual({});
    expect(host.servers.listTools({ serverName: 'MyServer' }).length).toBeGreaterThan(0);
  });

  it('--session changes enablement for this host only and writes no file', async () => {
    const home = await tempDir();
    await writeSettings(home, { one: basic() });
    const enablementFile = join(home, '.myapp', 'mcp-server-enablement.json');
    const host = await createHost({ appDir: '.myapp', homeDir: home });
    await host.discover();

    const off = await host.commands.run({ line: '/mcp disable one --session' });
    expect(off.kind === 'text' && off.text).toBe("MCP server 'one' disabled for this session. It is now DISABLED.");
    expect(existsSync(enablementFile)).toBe(false);
    // A reload keeps the session choice.
    await host.servers.reload();
    expect(statusOf(host, 'one')).toBe('DISABLED');
    const on = await host.commands.run({ line: '/mcp enable --session one' });
    expect(on.kind === 'text' && on.text).toBe("MCP server 'one' enabled for this session. It is now CONNECTED.");
    expect(existsSync(enablementFile)).toBe(false);

    // A server disabled in the file can be enabled for this session only.
    await host.servers.disable({ serverName: 'one' });
    expect(existsSync(enablementFile)).toBe(true);
    const view = await host.servers.enable({ serverName: 'one', session: true });
    expect(view.status).toBe('CONNECTED');
    expect(JSON.parse(await readFile(enablementFile, 'utf8'))).toEqual({ one: { enabled: false } });
  });

  it('answers bad /mcp enable and /mcp disable lines with usage or not-found errors', async () => {
    const host = await createHost({ settings: { mcpServers: { one: basic() }, mcp: { excluded: ['off'] } } });
    await expect(host.commands.run({ line: '/mcp enable' })).rejects.toMatchObject({
      code: 'INVALID_SLASH_COMMAND',
      message: 'Server name required. Usage: /mcp enable <server-name> [--session]',
    });
    await expect(host.commands.run({ line: '/mcp disable nope --session' })).rejects.toMatchObject({
      code: 'SERVER_NOT_FOUND',
      message: "Server 'nope' not found. Use /mcp list to see available servers.",
    });
    // A host given its settings directly has no enablement file to save to.
    await expect(host.commands.run({ line: '/mcp disable one' })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('/mcp disable one --session'),
    });
    await host.servers.add({ serverName: 'off', config: basic() });
    await expect(host.commands.run({ line: '/mcp enable off --session' })).rejects.toMatchObject({ code: 'SERVER_BLOCKED' });
  });

  it('/mcp refresh picks up a tool list that changed without a notification, over the same process', async () => {
    const silent: McpServerConfig = {
      command: process.execPath,
      args: [fixtureBinPath('list-changed'), '--silent-changes=true'],
      trust: true,
    };
    const host = await createHost({ settings: { mcpServers: { dyn: silent, plain: basic() } } });
    await host.discover();
    const names = () => host.servers.listTools({ serverName: 'dyn' }).map((tool) => tool.originalName);
    const changeTools = host.servers.listTools({ serverName: 'dyn' }).find((tool) => tool.originalName === 'change-tools')!;
    const changed = await host.callTool({ name: changeTools.name });
    expect(changed.error).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(names()).toContain('dynamic-0');
    const plainPid = await pidOf(host, 'plain');
    const registry = record(host, 'registry-change');

    const result = await host.commands.run({ line: '/mcp refresh dyn' });
    expect(result.kind === 'text' && result.text).toContain('Refreshed MCP server "dyn".');
    expect(names()).toContain('dynamic-1');
    expect(names()).not.toContain('dynamic-0');
    expect(registry.some((event) => event.kind === 'tools')).toBe(true);
    // The same process: its generation counter survived.
    await host.callTool({ name: changeTools.name });
    await host.servers.refresh();
    expect(names()).toContain('dynamic-2');

    // --restart starts new processes (back to generation 0).
    await host.commands.run({ line: '/mcp refresh --restart' });
    expect(names()).toContain('dynamic-0');
    expect(await pidOf(host, 'plain')).not.toBe(plainPid);
  });

  it('lists the new /mcp sub-commands for completion', async () => {
    const host = await createHost({ settings: { mcpServers: {} } });
    const mcp = host.commands.list().find((command) => command.name === 'mcp');
    expect(mcp?.subCommands.map((command) => command.name)).toEqual([
      'list',
      'desc',
      'schema',
      'auth',
      'refresh',
      'reload',
      'enable',
      'disable',
    ]);
    expect(mcp?.subCommands.find((command) => command.name === 'enable')?.arguments[0]).toMatchObject({ name: 'server', isRequired: true });
  });
});
