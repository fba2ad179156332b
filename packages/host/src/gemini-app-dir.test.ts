import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { trustFolder } from '@toolhost/config/trust';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
// The OAuth test server of @toolhost/oauth is not exported from that package: imported by path.
import { startProtectedMcpServer } from '@toolhost-internal/fixtures/oauth';
import { McpToolHost } from './mcp-tool-host.js';
import type { McpToolHostOptions } from './host-options.js';
import { fixtureServer } from './test-support.js';

// McpToolHost on Gemini CLI's folder: its trustedFolders.json decides whether project servers
// start, $TOOLHOST_APP_DIR picks the folder, and hints name it.
let root: string;
let home: string;
let project: string;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
const geminiRules = (rules: Record<string, string>) => put(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify(rules));

/** Status code of the project server `cloned` after `discover()` (the host is closed again). */
async function clonedStatus(options: McpToolHostOptions): Promise<[string | undefined, string | undefined, string | undefined]> {
  const host = await McpToolHost.create({ projectDir: project, homeDir: home, env: {}, ...options });
  try {
    await host.discover();
    const status = host.servers.status().servers.find((server) => server.name === 'cloned');
    return [status?.status, status?.errorCode, status?.lastError];
  } finally {
    await host.close();
  }
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-host-gemini-')));
  home = join(root, 'home');
  project = join(root, 'work', 'repo');
  await mkdir(home, { recursive: true });
  await put(join(project, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { cloned: fixtureServer('basic') } }));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("McpToolHost with appDir '.gemini'", () => {
  it("lets Gemini CLI's trustedFolders.json decide, and runs the servers toolhost trust pinned", async () => {
    const [status, code, message] = await clonedStatus({ appDir: '.gemini' });
    expect([status, code]).toEqual(['BLOCKED', 'UNTRUSTED_PROJECT']);
    expect(message).toContain('run "npx @toolhost/cli --app-dir .gemini trust" in');

    await geminiRules({ [join(root, 'work')]: 'TRUST_FOLDER', [project]: 'DO_NOT_TRUST' });
    expect((await clonedStatus({ appDir: '.gemini' })).slice(0, 2)).toEqual(['BLOCKED', 'UNTRUSTED_PROJECT']);

    // Trusted in Gemini CLI and never pinned by toolhost: the servers run, as in Gemini CLI (with a TRUST_NOT_PINNED warning).
    await geminiRules({ [join(root, 'work', 'other')]: 'TRUST_PARENT' });
    expect((await clonedStatus({ appDir: '.gemini' })).slice(0, 2)).toEqual(['CONNECTED', undefined]);

    // Already trusted through the parent: trusting only pins the servers, Gemini CLI's file is unchanged.
    expect(await trustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} })).toMatchObject({
      changed: false,
      pinsChanged: true,
    });
    expect(existsSync(join(home, '.gemini', 'trusted-folders.json'))).toBe(false);
    expect(JSON.parse(await readFile(join(home, '.gemini', 'trustedFolders.json'), 'utf8'))).toEqual({
      [join(root, 'work', 'other')]: 'TRUST_PARENT',
    });
    expect((await clonedStatus({ appDir: '.gemini' })).slice(0, 2)).toEqual(['CONNECTED', undefined]);

    // Once pinned, a changed command is blocked until trusted again.
    await put(
      join(project, '.gemini', 'settings.json'),
      JSON.stringify({
        mcpServers: { cloned: { ...fixtureServer('basic'), args: [...(fixtureServer('basic').args ?? []), '--changed'] } },
      }),
    );
    expect((await clonedStatus({ appDir: '.gemini' })).slice(0, 2)).toEqual(['BLOCKED', 'CHANGED_SINCE_TRUSTED']);
  });

  it('honours security.folderTrust.enabled: false and GEMINI_CLI_TRUST_WORKSPACE', async () => {
    expect((await clonedStatus({ appDir: '.gemini', env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' } })).slice(0, 2)).toEqual([
      'CONNECTED',
      undefined,
    ]);
    await put(join(home, '.gemini', 'settings.json'), '{ "security": { "folderTrust": { "enabled": false } } }');
    expect((await clonedStatus({ appDir: '.gemini' })).slice(0, 2)).toEqual(['CONNECTED', undefined]);
    expect((await clonedStatus({ appDir: '.gemini', env: { GEMINI_CLI_TRUST_WORKSPACE: 'false' } })).slice(0, 2)).toEqual([
      'BLOCKED',
      'UNTRUSTED_PROJECT',
    ]);
  });

  it('takes the folder from TOOLHOST_APP_DIR when no appDir is given', async () => {
    await geminiRules({ [project]: 'TRUST_FOLDER' });
    await trustFolder({ appDir: '.gemini', homeDir: home, folder: project, env: {} });
    expect((await clonedStatus({ env: { TOOLHOST_APP_DIR: '.gemini' } })).slice(0, 2)).toEqual(['CONNECTED', undefined]);
    // Without it, .toolhost is read: no settings there.
    expect((await clonedStatus({})).slice(0, 2)).toEqual([undefined, undefined]);
    // The option wins over the variable.
    expect((await clonedStatus({ appDir: '.toolhost', env: { TOOLHOST_APP_DIR: '.gemini' } })).slice(0, 2)).toEqual([undefined, undefined]);
  });

  it('names the folder in the sign-in hint of a server that needs authentication', async () => {
    const secure = await startProtectedMcpServer({
      authorizationServers: () => ['http://127.0.0.1:1'],
      verifyAccessToken: async () => undefined,
    });
    try {
      await put(join(home, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { secure: { httpUrl: secure.url } } }));
      const host = await McpToolHost.create({ homeDir: home, env: { TOOLHOST_APP_DIR: '.gemini' } });
      try {
        await host.discover();
        const status = host.servers.status().servers.find((server) => server.name === 'secure');
        expect([status?.status, status?.errorCode]).toEqual(['DISCONNECTED', 'AUTH_REQUIRED']);
        expect(status?.lastError).toContain(
          'requires authentication: run "npx @toolhost/cli --app-dir .gemini mcp auth secure" (or your host\'s equivalent)',
        );
      } finally {
        await host.close();
      }
    } finally {
      await secure.close();
    }
  });
});
