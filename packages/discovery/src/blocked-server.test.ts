import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '@toolhost/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpServerManager } from './mcp-server-manager.js';
import { DiscoveryState, McpServerStatus } from './server-status.js';
import { stdioFixture } from './test-support.js';

// A server handed over with a `blockedReason` (for instance the settings of an untrusted project
// folder) is reported BLOCKED with that reason and its command is never run.
let root: string;
let marker: string;
const managers: McpServerManager[] = [];

/** A stdio entry whose command leaves a marker file as soon as it is spawned. */
function markingEntry(file: string): { command: string; args: string[] } {
  return { command: process.execPath, args: ['-e', 'require("fs").writeFileSync(process.argv[1], "spawned")', file] };
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolhost-blocked-'));
  marker = join(root, 'spawned.txt');
});
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  await rm(root, { recursive: true, force: true });
});

describe('blocked servers', () => {
  it('are BLOCKED with the given reason and never spawned, by discoverAll or reconnect', async () => {
    const reason = 'MCP server "cloned" comes from the settings of the project folder /repo, which is not trusted.';
    const manager = new McpServerManager({
      servers: [
        { name: 'cloned', config: markingEntry(marker), blockedReason: reason },
        { name: 'good', config: stdioFixture('basic') },
      ],
    });
    managers.push(manager);
    const statuses: string[] = [];
    manager.on('server-status-change', ({ serverName, status }) => statuses.push(`${serverName}:${status}`));
    const snapshots = await manager.discoverAll();
    const cloned = snapshots.find((snapshot) => snapshot.name === 'cloned');
    expect(cloned?.status).toBe(McpServerStatus.BLOCKED);
    expect(cloned?.lastError).toMatchObject({ code: 'SERVER_BLOCKED' });
    expect(cloned?.lastError?.message).toContain(reason);
    expect(snapshots.find((snapshot) => snapshot.name === 'good')?.status).toBe(McpServerStatus.CONNECTED);
    expect((await manager.reconnect('cloned')).status).toBe(McpServerStatus.BLOCKED);
    expect(manager.getClient('cloned')).toBeUndefined();
    expect(statuses.filter((entry) => entry.startsWith('cloned:'))).toEqual([]);
    expect(manager.getDiscoveryState()).toBe(DiscoveryState.COMPLETED);
    expect(existsSync(marker)).toBe(false);

    // Control: the same entry without a blockedReason is spawned (and fails, as it is no MCP server:
    // it exits once it has written the marker; the timeout only stops a busy machine's slow start-up
    // from ending it before that).
    const control = new McpServerManager({ servers: [{ name: 'cloned', config: { ...markingEntry(marker), timeout: 30_000 } }] });
    managers.push(control);
    expect((await control.discoverAll())[0]?.status).toBe(McpServerStatus.DISCONNECTED);
    expect(existsSync(marker)).toBe(true);
  });

  it('include the project servers of an untrusted folder as loadSettings reports them', async () => {
    const home = join(root, 'home');
    const project = join(root, 'repo');
    await mkdir(join(home, '.toolhost'), { recursive: true });
    await mkdir(join(project, '.toolhost'), { recursive: true });
    await writeFile(join(project, '.toolhost', 'settings.json'), JSON.stringify({ mcpServers: { cloned: markingEntry(marker) } }));
    const settings = await loadSettings({ homeDir: home, projectDir: project, env: {} });
    const manager = new McpServerManager({
      servers: settings.servers.map((server) => ({
        name: server.name,
        config: server.config,
        blockedReason: server.blockReason?.message,
        disabled: !server.enabled,
      })),
    });
    managers.push(manager);
    const [snapshot] = await manager.discoverAll();
    expect(snapshot?.status).toBe(McpServerStatus.BLOCKED);
    expect(snapshot?.lastError?.message).toContain('toolhost trust');
    expect(existsSync(marker)).toBe(false);
  });
});
