import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// The OAuth test server of @toolhost/oauth is not exported from that package: imported by path.
import { startProtectedMcpServer } from '@toolhost-internal/fixtures/oauth';
import { assertBinBuilt, put, runToolhost, type RunPlace } from './testing/run-toolhost.js';

// The settings folder of another program (--app-dir .gemini, or $TOOLHOST_APP_DIR) with the
// built binary: Gemini CLI's own trust store is read and written, and every hint names the folder.
let root: string;
let place: RunPlace;
const cleanups: Array<() => Promise<void>> = [];
const run = (args: string[], env: Record<string, string> = {}) => runToolhost(args, { ...place, env });
const gemini = (...args: string[]) => run(['--app-dir', '.gemini', ...args]);
const geminiFile = () => join(place.home, '.gemini', 'trustedFolders.json');
const pinsFile = () => join(place.home, '.gemini', 'toolhost-pinned-servers.json');
const projectFile = () => join(place.cwd, '.gemini', 'settings.json');
const line = (stdout: string, name: string) => stdout.split('\n').find((text) => text.includes(` ${name}: `));

beforeAll(() => assertBinBuilt());
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'toolhost-cli-app-dir-')));
  place = { home: join(root, 'home'), cwd: join(root, 'clones', 'repo') };
  await mkdir(place.home, { recursive: true });
  await mkdir(place.cwd, { recursive: true });
  await put(projectFile(), JSON.stringify({ mcpServers: { cloned: { command: 'node', args: ['server.js'] } } }));
});
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  await rm(root, { recursive: true, force: true });
});

describe("toolhost --app-dir .gemini uses Gemini CLI's trusted folders", () => {
  it('trust writes Gemini\'s own file in its format, pins next to it, and untrust records "DO_NOT_TRUST"', async () => {
    expect(line((await gemini('mcp', 'list', '--no-connect')).stdout, 'cloned')).toBe(
      '⛔ cloned: node server.js (stdio) - Blocked (project folder not trusted: run "toolhost --app-dir .gemini trust") [project]',
    );
    const other = join(root, 'other');
    await put(geminiFile(), `{\n  // decided in Gemini CLI\n  "${other}": "DO_NOT_TRUST"\n}\n`);

    const trusted = await gemini('trust');
    expect(trusted).toEqual({
      code: 0,
      stderr: '',
      stdout:
        `Trusted ${place.cwd}.\n` +
        `Recorded as "TRUST_FOLDER" in ${geminiFile()} (Gemini CLI's trusted folders); its MCP servers are pinned in ${pinsFile()}.\n` +
        'MCP servers of its project settings that may start, exactly as listed:\n  cloned: "node" "server.js"\n' +
        `A server added to its project settings later, or whose command, arguments, working folder, environment, URL, headers or trust change, is blocked until you run "toolhost --app-dir .gemini trust" in ${place.cwd} again.\n`,
    });
    expect(await readFile(geminiFile(), 'utf8')).toBe(
      `{\n  // decided in Gemini CLI\n  "${other}": "DO_NOT_TRUST",\n  "${place.cwd}": "TRUST_FOLDER"\n}\n`,
    );
    expect(Object.keys(JSON.parse(await readFile(pinsFile(), 'utf8')) as object)).toEqual([place.cwd]);
    expect(existsSync(join(place.home, '.gemini', 'trusted-folders.json'))).toBe(false);
    expect(existsSync(join(place.home, '.toolhost'))).toBe(false);
    expect(line((await gemini('mcp', 'list', '--no-connect')).stdout, 'cloned')).toBe(
      '• cloned: node server.js (stdio) - Enabled [project]',
    );

    // A changed command is not run silently, although Gemini CLI's file still trusts the folder.
    await put(projectFile(), JSON.stringify({ mcpServers: { cloned: { command: 'node', args: ['evil.js'] } } }));
    expect(line((await gemini('mcp', 'list', '--no-connect')).stdout, 'cloned')).toBe(
      '⛔ cloned: node evil.js (stdio) - Blocked (changed since trusted: args: ["server.js"] → ["evil.js"]; check it, then run "toolhost --app-dir .gemini trust" again) [project]',
    );

    expect((await gemini('untrust')).stdout).toBe(
      `${place.cwd} is no longer trusted: MCP servers in its project settings are blocked.\n` +
        `Recorded as "DO_NOT_TRUST" in ${geminiFile()} (Gemini CLI's trusted folders).\n`,
    );
    expect(JSON.parse((await readFile(geminiFile(), 'utf8')).replace('// decided in Gemini CLI', ''))).toEqual({
      [other]: 'DO_NOT_TRUST',
      [place.cwd]: 'DO_NOT_TRUST',
    });
    expect(JSON.parse(await readFile(pinsFile(), 'utf8'))).toEqual({});
  });

  it("Gemini CLI's TRUST_PARENT, DO_NOT_TRUST, security.folderTrust.enabled and GEMINI_CLI_TRUST_WORKSPACE decide", async () => {
    const status = async (env: Record<string, string> = {}) =>
      line((await run(['--app-dir', '.gemini', 'mcp', 'list', '--no-connect'], env)).stdout, 'cloned');
    // Trusted by Gemini CLI ("Trust parent folder" chosen in a sibling), never pinned by toolhost: enabled, as in Gemini CLI, with a warning.
    await put(geminiFile(), JSON.stringify({ [join(root, 'clones', 'sibling')]: 'TRUST_PARENT' }));
    const listed = await run(['--app-dir', '.gemini', 'mcp', 'list', '--no-connect']);
    expect(line(listed.stdout, 'cloned')).toBe('• cloned: node server.js (stdio) - Enabled [project]');
    expect(listed.stderr).toContain('TRUST_NOT_PINNED');
    expect(listed.stderr).toContain('run "toolhost --app-dir .gemini trust" in');
    await put(geminiFile(), JSON.stringify({ [join(root, 'clones', 'sibling')]: 'TRUST_PARENT', [place.cwd]: 'DO_NOT_TRUST' }));
    expect(await status()).toContain('Blocked (project folder not trusted: run "toolhost --app-dir .gemini trust")');

    // Folder trust turned off in Gemini CLI's user settings: every folder is trusted, nothing is pinned.
    await put(join(place.home, '.gemini', 'settings.json'), '{ "security": { "folderTrust": { "enabled": false } } }');
    expect(await status()).toBe('• cloned: node server.js (stdio) - Enabled [project]');
    await put(join(place.home, '.gemini', 'settings.json'), '{}');
    expect(await status()).toContain('Blocked (project folder not trusted');

    expect(await status({ GEMINI_CLI_TRUST_WORKSPACE: 'true' })).toBe('• cloned: node server.js (stdio) - Enabled [project]');
    const trust = await run(['--app-dir', '.gemini', 'trust'], { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(trust.stdout).toContain(
      'Note: GEMINI_CLI_TRUST_WORKSPACE=true turns folder trust off, so for now every folder is trusted and pinned servers are not checked.\n',
    );
    expect(JSON.parse(await readFile(geminiFile(), 'utf8'))).toMatchObject({ [place.cwd]: 'TRUST_FOLDER' });
  });

  it('refuses to rewrite a trustedFolders.json it does not recognise, and changes nothing', async () => {
    const text = `{ "${place.cwd}": "ALWAYS" }`;
    await put(geminiFile(), text);
    const result = await gemini('trust');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error \[INVALID_VALUE\]: .*trustedFolders\.json:1:\d+: .*"ALWAYS"/);
    expect(await readFile(geminiFile(), 'utf8')).toBe(text);
    expect(existsSync(pinsFile())).toBe(false);
  });
});

describe('TOOLHOST_APP_DIR', () => {
  it('selects the settings folder, --app-dir wins, and hints name the folder', async () => {
    await put(join(place.home, '.gemini', 'settings.json'), '{"mcpServers": {"g": {"command": "gemini-tool"}}}');
    await put(join(place.home, '.toolhost', 'settings.json'), '{"mcpServers": {"t": {"command": "toolhost-tool"}}}');
    const env = { TOOLHOST_APP_DIR: '.gemini' };
    const listed = await run(['mcp', 'list', '--no-connect'], env);
    expect(listed.stdout.split('\n')).toEqual([
      'Configured MCP servers:',
      '',
      '• g: gemini-tool (stdio) - Enabled [user]',
      '⛔ cloned: node server.js (stdio) - Blocked (project folder not trusted: run "toolhost --app-dir .gemini trust") [project]',
      '',
    ]);
    expect((await run(['--app-dir', '.toolhost', 'mcp', 'list', '--no-connect'], env)).stdout).toContain(
      '• t: toolhost-tool (stdio) - Enabled [user]',
    );
    expect((await run(['mcp', 'add', '-s', 'user', 'added', 'added-tool'], env)).code).toBe(0);
    expect(JSON.parse(await readFile(join(place.home, '.gemini', 'settings.json'), 'utf8'))).toMatchObject({
      mcpServers: { g: { command: 'gemini-tool' }, added: { command: 'added-tool' } },
    });
    expect((await run(['mcp', 'enable', 'nope'], env)).stderr).toBe(
      "Error [SERVER_NOT_FOUND]: Server 'nope' not found. Use 'toolhost --app-dir .gemini mcp list' to see available servers.\n",
    );
    expect((await run(['--help'], env)).stdout).toContain('default: $TOOLHOST_APP_DIR, else .toolhost');
  });

  it('names the folder in the sign-in hints of mcp list and mcp auth', async () => {
    const secure = await startProtectedMcpServer({
      authorizationServers: () => ['http://127.0.0.1:1'],
      verifyAccessToken: async () => undefined,
    });
    cleanups.push(() => secure.close());
    await put(join(place.home, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { secure: { httpUrl: secure.url } } }));
    expect((await gemini('mcp', 'list')).stdout).toContain(
      `✗ secure: ${secure.url} (http) - Disconnected [user]\n    Reason: needs authentication: run "toolhost --app-dir .gemini mcp auth secure".\n`,
    );
    expect((await gemini('mcp', 'auth')).stdout).toContain(
      `✗ secure: ${secure.url} (http) - Disconnected (needs authentication, no token stored) [user]\n    Run "toolhost --app-dir .gemini mcp auth secure" to authenticate.\n`,
    );
    expect((await gemini('mcp', 'auth', 'nope')).stderr).toBe(
      "Error [SERVER_NOT_FOUND]: Server 'nope' not found. Use 'toolhost --app-dir .gemini mcp auth' to see the remote servers.\n",
    );
    // With the default folder the hints stay as they were.
    expect((await run(['mcp', 'auth', 'nope'])).stderr).toContain("Use 'toolhost mcp auth' to see the remote servers.");
  });
});
