// McpToolHost with `stores.trust`: folder trust and the pinned project servers come from the
// given FolderTrustStore (here @toolhost/config's MemoryFolderTrustStore) instead of the
// trusted-folders files. An untrusted folder's servers never start, trusting it in the store
// starts them, a server whose command changed after trusting is blocked and never run, and the
// files are neither read for the decision nor written.
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MemoryFolderTrustStore, setStoredFolderTrust, trustFolder, untrustFolder, type FolderTrustStore } from '@toolhost/config/trust';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { HostError } from './host-error.js';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer, useProjectFolders } from './test-support.js';

const { tempDir, writeProjectSettings, startHost } = useProjectFolders('toolhost-trust-store-');

/** `[name, status, errorCode]` of each server after `discover()`. */
async function statuses(host: McpToolHost): Promise<Array<[string, string, string | undefined]>> {
  const status = await host.discover();
  return status.servers.map((server) => [server.name, server.status, server.errorCode]);
}

describe.skipIf(process.platform === 'win32')('McpToolHost with stores.trust', () => {
  it('reads trust and pins from the store, never from the files: untrusted blocks, trusted starts, a changed command is blocked', async () => {
    const home = await tempDir();
    const project = await tempDir();
    const marker = join(await tempDir(), 'spawned');
    await writeProjectSettings(project, { tool: fixtureServer('basic') });
    // The files trust the folder: a host with a store must not care.
    await trustFolder({ homeDir: home, folder: project });
    const trust = new MemoryFolderTrustStore();

    const untrusted = await startHost({ projectDir: project, homeDir: home, stores: { trust }, trustCommand: 'myapp trust' });
    expect(await statuses(untrusted)).toEqual([['tool', 'BLOCKED', 'UNTRUSTED_PROJECT']]);
    expect(
      untrusted.servers
        .status()
        .warnings.map((warning) => warning.message)
        .join('\n'),
    ).toContain('"myapp trust"');
    await expect(untrusted.servers.enable({ serverName: 'tool' })).rejects.toMatchObject({ code: 'SERVER_BLOCKED' });
    // From now on the files say "not trusted": a host with a store must not care either.
    await untrustFolder({ homeDir: home, folder: project });
    const filesBefore = await readFile(join(home, '.toolhost', 'trusted-folders.json'), 'utf8');

    // Trusting in the store pins the project's servers; a reload of the same host starts them.
    const trusted = await setStoredFolderTrust(trust, { homeDir: home, folder: project, trusted: true });
    expect(trusted).toMatchObject({ trusted: true, changed: true, pinsChanged: true });
    expect(trusted.pinned.map((server) => server.name)).toEqual(['tool']);
    await untrusted.servers.reload();
    expect(untrusted.servers.status().servers.map((server) => [server.name, server.status])).toEqual([['tool', 'CONNECTED']]);
    // Enabling in the enablement file reads trust from the store too (the files would refuse: not trusted).
    await untrusted.servers.disable({ serverName: 'tool' });
    await expect(untrusted.servers.enable({ serverName: 'tool' })).resolves.toMatchObject({ status: 'CONNECTED' });

    // The same name now runs a script that leaves a marker, and a new entry is added.
    const script = join(project, 'evil.sh');
    await writeFile(script, `#!/bin/sh\necho spawned > ${JSON.stringify(marker)}\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
    await chmod(script, 0o755);
    await writeProjectSettings(project, {
      tool: { command: script, args: [fixtureBinPath('basic')] },
      added: { command: script, args: [fixtureBinPath('basic')] },
    });
    const changed = await startHost({ projectDir: project, homeDir: home, stores: { trust }, trustCommand: 'myapp trust' });
    expect(await statuses(changed)).toEqual([
      ['tool', 'BLOCKED', 'CHANGED_SINCE_TRUSTED'],
      ['added', 'BLOCKED', 'CHANGED_SINCE_TRUSTED'],
    ]);
    const tool = changed.servers.status().servers.find((server) => server.name === 'tool');
    expect(tool?.lastError).toContain(`command: ${JSON.stringify(process.execPath)} → ${JSON.stringify(script)}`);
    expect(tool?.lastError).toContain('"myapp trust"');
    await changed.servers.reconnect({ serverName: 'tool' }).catch(() => undefined);
    expect(existsSync(marker)).toBe(false);

    // Trusting again in the store pins the new entries: now (and only now) the script runs.
    await setStoredFolderTrust(trust, { homeDir: home, folder: project, trusted: true });
    const retrusted = await startHost({ projectDir: project, homeDir: home, stores: { trust } });
    expect(await statuses(retrusted)).toEqual([
      ['tool', 'CONNECTED', undefined],
      ['added', 'CONNECTED', undefined],
    ]);
    expect(await readFile(marker, 'utf8')).toBe('spawned\n');

    // Untrusting in the store blocks them again; the files were never written.
    await setStoredFolderTrust(trust, { homeDir: home, folder: project, trusted: false });
    const again = await startHost({ projectDir: project, homeDir: home, stores: { trust } });
    expect((await statuses(again)).map(([, status, code]) => [status, code])).toEqual([
      ['BLOCKED', 'UNTRUSTED_PROJECT'],
      ['BLOCKED', 'UNTRUSTED_PROJECT'],
    ]);
    expect(await readFile(join(home, '.toolhost', 'trusted-folders.json'), 'utf8')).toBe(filesBefore);
  });

  it('blocks every project server of a folder trusted in the store without pins', async () => {
    const home = await tempDir();
    const project = await tempDir();
    await writeProjectSettings(project, { tool: fixtureServer('basic') });
    const trust = new MemoryFolderTrustStore();
    await trust.setFolderTrust(project, true);
    const host = await startHost({ projectDir: project, homeDir: home, stores: { trust } });
    expect(await statuses(host)).toEqual([['tool', 'BLOCKED', 'CHANGED_SINCE_TRUSTED']]);
    expect(host.servers.status().servers[0]?.lastError).toContain('was trusted without recording its servers');
  });

  it('fails to start on a store that cannot be read, and a reload then keeps the running servers', async () => {
    const home = await tempDir();
    const project = await tempDir();
    await writeProjectSettings(project, { tool: fixtureServer('basic') });
    const memory = new MemoryFolderTrustStore();
    await setStoredFolderTrust(memory, { homeDir: home, folder: project, trusted: true });
    let down = true;
    const trust: FolderTrustStore = {
      getFolderTrust: async (folder) => {
        if (down) throw new Error('connection refused (127.0.0.1:6379)');
        return memory.getFolderTrust(folder);
      },
      setFolderTrust: (folder, trusted, options) => memory.setFolderTrust(folder, trusted, options),
    };
    const failed = await McpToolHost.create({ projectDir: project, homeDir: home, stores: { trust } }).catch((error: unknown) => error);
    expect(HostError.isInstance(failed) && failed.code).toBe('SETTINGS_LOAD_FAILED');
    expect((failed as Error).message).toContain('connection refused (127.0.0.1:6379)');

    down = false;
    const host = await startHost({ projectDir: project, homeDir: home, stores: { trust } });
    expect(await statuses(host)).toEqual([['tool', 'CONNECTED', undefined]]);
    down = true;
    const reload = await host.servers.reload();
    expect(reload.applied).toBe(false);
    expect(host.servers.status().servers.map((server) => server.status)).toEqual(['CONNECTED']);
  });
});
