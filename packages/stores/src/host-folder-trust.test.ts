// McpToolHost with the folder trust of createKeyvStores on a real redis-server (started by the
// globalSetup), given as `stores`: a project folder's servers start only once its user trusted
// it in Redis, a server whose command changed after that is blocked and never run, and one
// user's trust (and pins) never apply to another user on the same Redis.
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setStoredFolderTrust } from '@toolhost/config/trust';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { McpToolHost } from '@toolhost/host';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyvStores, type KeyvStores } from './create-keyv-stores.js';
import { openBackend, type TestBackend } from './testing/backends.js';
import { userDocumentKey } from './user-keys.js';

let backend: TestBackend;
let alice: string;
let bob: string;
const dirs: string[] = [];

beforeEach(async () => {
  backend = await openBackend('redis');
  const run = randomUUID().slice(0, 8);
  alice = `alice@example.com/${run}`;
  bob = `bob@example.com/${run}`;
});
afterEach(async () => {
  await backend.close();
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolhost-stores-host-trust-'));
  dirs.push(dir);
  return dir;
}

async function writeProjectSettings(project: string, mcpServers: Record<string, unknown>): Promise<void> {
  await mkdir(join(project, '.toolhost'), { recursive: true });
  await writeFile(join(project, '.toolhost', 'settings.json'), JSON.stringify({ mcpServers }));
}

describe.skipIf(process.platform === 'win32')('folder trust of McpToolHost in Redis', () => {
  /** A new host (its own Redis connection, as another instance) of `user` in `project`: `[name, status, errorCode]` of each server. */
  async function statuses(user: string, home: string, project: string): Promise<Array<[string, string, string | undefined]>> {
    const stores: KeyvStores = createKeyvStores({ store: backend.open(), user });
    const host = await McpToolHost.create({ projectDir: project, homeDir: home, stores, trustCommand: 'myapp trust' });
    try {
      const status = await host.discover();
      return status.servers.map((server) => [server.name, server.status, server.errorCode]);
    } finally {
      await host.close();
    }
  }

  it("starts a project's servers only once its user trusted it, blocks a command changed since, and never applies one user's trust to another", async () => {
    const home = await tempDir();
    const project = await tempDir();
    const marker = join(await tempDir(), 'spawned');
    await writeProjectSettings(project, { tool: { command: process.execPath, args: [fixtureBinPath('basic')] } });
    const aliceTrust = createKeyvStores({ store: backend.open(), user: alice }).trust;
    const bobTrust = createKeyvStores({ store: backend.open(), user: bob }).trust;

    expect(await statuses(alice, home, project)).toEqual([['tool', 'BLOCKED', 'UNTRUSTED_PROJECT']]);

    // Alice trusts the folder (her app's own prompt said yes): her hosts start it, Bob's do not.
    const trusted = await setStoredFolderTrust(aliceTrust, { homeDir: home, folder: project, trusted: true });
    expect(trusted.pinned.map((server) => server.name)).toEqual(['tool']);
    expect(await statuses(alice, home, project)).toEqual([['tool', 'CONNECTED', undefined]]);
    expect(await statuses(bob, home, project)).toEqual([['tool', 'BLOCKED', 'UNTRUSTED_PROJECT']]);
    // The decision and the pins are in Redis under Alice's key; no trusted-folders file was written.
    const stored = await backend.dump(userDocumentKey(alice, 'trusted-folders'));
    expect(stored.map((entry) => entry.value).join('\n')).toContain(trusted.pinned[0]?.pin.digest);
    expect(existsSync(join(home, '.toolhost', 'trusted-folders.json'))).toBe(false);

    // A `git pull` changes the command to a script that leaves a marker.
    const script = join(project, 'evil.sh');
    await writeFile(script, `#!/bin/sh\necho spawned > ${JSON.stringify(marker)}\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
    await chmod(script, 0o755);
    await writeProjectSettings(project, { tool: { command: script, args: [fixtureBinPath('basic')] } });
    expect(await statuses(alice, home, project)).toEqual([['tool', 'BLOCKED', 'CHANGED_SINCE_TRUSTED']]);
    expect(existsSync(marker)).toBe(false);

    // Bob trusts the changed folder: it runs for him, while Alice's pins still block it for her.
    await setStoredFolderTrust(bobTrust, { homeDir: home, folder: project, trusted: true });
    expect(await statuses(bob, home, project)).toEqual([['tool', 'CONNECTED', undefined]]);
    expect(await readFile(marker, 'utf8')).toBe('spawned\n');
    expect(await statuses(alice, home, project)).toEqual([['tool', 'BLOCKED', 'CHANGED_SINCE_TRUSTED']]);

    // Alice untrusts it: blocked as untrusted for her, Bob's trust is untouched.
    await setStoredFolderTrust(aliceTrust, { homeDir: home, folder: project, trusted: false });
    expect(await statuses(alice, home, project)).toEqual([['tool', 'BLOCKED', 'UNTRUSTED_PROJECT']]);
    expect(await statuses(bob, home, project)).toEqual([['tool', 'CONNECTED', undefined]]);
  });
});
