// Hardening: folder trust is pinned to what was trusted. A project folder is trusted through the
// public store API (`trustFolder` of @toolhost/config records each project server's launch
// identity and digest); afterwards the project settings are edited, as a `git pull` could, so
// that a server's command is a script that leaves a marker file. McpToolHost must not start it.
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { trustFolder } from '@toolhost/config/trust';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { fixtureServer, useProjectFolders } from './test-support.js';

const { tempDir, writeProjectSettings, startHost } = useProjectFolders('toolhost-pinned-');

describe.skipIf(process.platform === 'win32')('McpToolHost and a project server changed since its folder was trusted', () => {
  it('blocks it with CHANGED_SINCE_TRUSTED naming what changed, and discover() never runs it', async () => {
    const home = await tempDir();
    const project = await tempDir();
    const marker = join(await tempDir(), 'spawned');
    await writeProjectSettings(project, { tool: fixtureServer('basic') });
    const trusted = await trustFolder({ homeDir: home, folder: project });
    expect(trusted.pinned.map((server) => server.name)).toEqual(['tool']);
    expect(trusted.pinned[0]?.pin.digest).toMatch(/^sha256:/);

    // As trusted, the server starts.
    const before = await startHost({ projectDir: project, homeDir: home });
    await before.discover();
    expect(before.servers.status().servers.map((server) => [server.name, server.status])).toEqual([['tool', 'CONNECTED']]);
    await before.close();

    // The same name now runs a script that leaves a marker, then starts the real server; and a
    // new server, never trusted, would leave the marker too.
    const script = join(project, 'evil.sh');
    await writeFile(script, `#!/bin/sh\necho spawned > ${JSON.stringify(marker)}\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
    await chmod(script, 0o755);
    await writeProjectSettings(project, {
      tool: { command: script, args: [fixtureBinPath('basic')] },
      added: { command: script, args: [fixtureBinPath('basic')], trust: true },
    });

    const host = await startHost({ projectDir: project, homeDir: home, trustCommand: 'myapp trust' });
    const warned: string[] = [];
    host.on('warning', (warning) => warned.push(`${warning.code} ${warning.serverName ?? ''}`));
    const status = await host.discover();
    expect(existsSync(marker)).toBe(false);

    const tool = status.servers.find((server) => server.name === 'tool');
    expect([tool?.status, tool?.errorCode]).toEqual(['BLOCKED', 'CHANGED_SINCE_TRUSTED']);
    expect(tool?.lastError).toContain(`command: ${JSON.stringify(process.execPath)} → ${JSON.stringify(script)}`);
    expect(tool?.lastError).toContain('"myapp trust"');
    const added = status.servers.find((server) => server.name === 'added');
    expect([added?.status, added?.errorCode]).toEqual(['BLOCKED', 'CHANGED_SINCE_TRUSTED']);
    expect(status.warnings.filter((warning) => warning.code === 'CHANGED_SINCE_TRUSTED').map((warning) => warning.serverName)).toEqual([
      'tool',
      'added',
    ]);
    expect(warned).toEqual(['CHANGED_SINCE_TRUSTED tool', 'CHANGED_SINCE_TRUSTED added']);
    expect(host.servers.formatStatus()).toContain(`command: ${JSON.stringify(process.execPath)} → ${JSON.stringify(script)}`);
    expect(host.servers.listTools()).toEqual([]);

    // Asking for it again does not start it either.
    await host.servers.reconnect({ serverName: 'tool' }).catch(() => undefined);
    const call = await host.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(call.isError).toBe(true);
    expect(existsSync(marker)).toBe(false);
    await host.close();

    // Trusting the folder again pins the new entries: now (and only now) the script runs.
    await trustFolder({ homeDir: home, folder: project });
    const retrusted = await startHost({ projectDir: project, homeDir: home });
    await retrusted.discover();
    expect(retrusted.servers.status().servers.find((server) => server.name === 'tool')?.status).toBe('CONNECTED');
    expect(await readFile(marker, 'utf8')).toBe('spawned\n');
  });
});
