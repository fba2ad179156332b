import { cp, mkdtemp, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import { startJsonRoutesServer, startProtectedMcpServer } from '@toolhost-internal/fixtures/oauth';
import { assertBinBuilt, runToolhost, type RunPlace } from './testing/run-toolhost.js';

// The drop-in check of the whole folder: src/testing/homes/<app> holds a Gemini CLI (and a Qwen
// Code) home folder and project as those programs write them: settings with their other keys,
// `mcp.excluded`, the enablement file, their trustedFolders.json and their token file. The built
// `toolhost --app-dir .gemini mcp list` must show the statuses the program would show (connected,
// blocked, disabled; the trusted project's server connected), connect with the stored token, and
// leave the token file in the program's format, also after a refresh rewrote it.

const HOMES = fileURLToPath(new URL('./testing/homes/', import.meta.url));
const cleanups: Array<() => Promise<void>> = [];
beforeAll(() => assertBinBuilt());
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A token endpoint that refreshes `stored-refresh` into `refreshed-token` (no new refresh token, as some servers do). */
async function startTokenEndpoint() {
  const refreshes: URLSearchParams[] = [];
  const server = await startJsonRoutesServer((request) => {
    if (request.path !== '/token') return undefined;
    const form = new URLSearchParams(request.body);
    refreshes.push(form);
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== 'stored-refresh')
      return { status: 400, body: { error: 'invalid_grant' } };
    return { body: { access_token: 'refreshed-token', token_type: 'Bearer', expires_in: 3600, scope: 'mcp:tools' } };
  });
  cleanups.push(() => server.close());
  return { url: `${server.url}/token`, refreshes };
}

/** Copies the fixture home and project of `app` into a temporary folder, filling in paths, ports and the fixture server. */
async function copyFixture(app: 'gemini' | 'qwen', values: { mcpUrl: string; tokenUrl: string }): Promise<RunPlace> {
  const root = await realpath(await mkdtemp(join(tmpdir(), `toolhost-${app}-home-`)));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  await cp(join(HOMES, app), root, { recursive: true });
  const place = { home: join(root, 'home'), cwd: join(root, 'project') };
  const replacements: Record<string, string> = {
    '{{NODE}}': process.execPath,
    '{{FIXTURE_BIN}}': fixtureBinPath('basic'),
    '{{MCP_URL}}': values.mcpUrl,
    '{{TOKEN_URL}}': values.tokenUrl,
    '{{PROJECT}}': place.cwd,
    '{{APP}}': app,
  };
  for (const folder of [join(place.home, `.${app}`), join(place.cwd, `.${app}`)]) {
    for (const name of await readdir(folder)) {
      const file = join(folder, name);
      let text = await readFile(file, 'utf8');
      for (const [placeholder, value] of Object.entries(replacements))
        text = text.split(placeholder).join(JSON.stringify(value).slice(1, -1));
      await writeFile(file, text, { mode: name === 'mcp-oauth-tokens.json' ? 0o600 : 0o644 });
    }
  }
  return place;
}

/** Reads a token file as Gemini CLI and Qwen Code read it: a JSON array of `{ serverName, token: { accessToken, tokenType, ... }, ... }`. */
async function readAsTheProgramDoes(
  file: string,
): Promise<Array<Record<string, unknown> & { serverName: string; token: Record<string, unknown> }>> {
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  expect(Array.isArray(parsed)).toBe(true);
  for (const entry of parsed as Array<Record<string, unknown>>) {
    expect(typeof entry['serverName']).toBe('string');
    const token = entry['token'] as Record<string, unknown>;
    expect(typeof token['accessToken']).toBe('string');
    expect(typeof token['tokenType']).toBe('string');
    expect(typeof entry['updatedAt']).toBe('number');
  }
  return parsed as Array<Record<string, unknown> & { serverName: string; token: Record<string, unknown> }>;
}

describe.each([
  ['gemini', 'Gemini CLI'],
  ['qwen', 'Qwen Code'],
] as const)('a real %s home folder (%s), used unchanged with --app-dir', (app, _program) => {
  const appDir = `.${app}`;

  async function setUp() {
    const tokenEndpoint = await startTokenEndpoint();
    const mcp = await startProtectedMcpServer({
      authorizationServers: () => [new URL(tokenEndpoint.url).origin],
      verifyAccessToken: async (token) =>
        token === 'stored-token' || token === 'refreshed-token'
          ? { audience: mcp.resource, scope: 'mcp:tools', clientId: `${app}-client` }
          : undefined,
    });
    cleanups.push(() => mcp.close());
    const place = await copyFixture(app, { mcpUrl: mcp.url, tokenUrl: tokenEndpoint.url });
    return { place, mcp, tokenEndpoint, tokenFile: join(place.home, appDir, 'mcp-oauth-tokens.json') };
  }

  it('mcp list shows the statuses the program would show and connects with its stored token; the token file is untouched', async () => {
    const { place, mcp, tokenFile } = await setUp();
    const before = await readFile(tokenFile, 'utf8');
    const trustBefore = await readFile(join(place.home, appDir, 'trustedFolders.json'), 'utf8');

    const listed = await runToolhost(['--app-dir', appDir, 'mcp', 'list'], place);
    const status = (name: string) => listed.stdout.split('\n').find((line) => line.includes(` ${name}: `));
    expect(status('local')).toMatch(/^✓ local: .* \(stdio\) - Connected \(MCP [\d-]+\) \[user\]$/);
    expect(status('secure')).toBe(`✓ secure: ${mcp.url} (http) - Connected (MCP 2025-11-25) [user]`);
    expect(status('legacy-tool')).toMatch(/^⛔ legacy-tool: .* - Blocked \(in mcp\.excluded\) \[user\]$/);
    if (app === 'gemini') expect(status('paused')).toMatch(/^○ paused: .* - Disabled \[user\]$/);
    // The project folder is trusted in the program's own trustedFolders.json.
    expect(status('project-tools')).toMatch(/^✓ project-tools: .* \(stdio\) - Connected \(MCP [\d-]+\) \[project\]$/);
    expect(mcp.accepted.length).toBeGreaterThan(0);
    expect(listed.code).toBe(0);

    // Nothing of the program's was rewritten, and no toolhost-format file appeared beside it.
    expect(await readFile(tokenFile, 'utf8')).toBe(before);
    expect(await readFile(join(place.home, appDir, 'trustedFolders.json'), 'utf8')).toBe(trustBefore);
    expect(await readdir(join(place.home, appDir))).not.toContain('trusted-folders.json');
  });

  it('a refresh writes the new token back in the program format, keeping the refresh token and the other entry, mode 0600', async () => {
    const { place, mcp, tokenEndpoint, tokenFile } = await setUp();
    // The stored token expires within the 5-minute refresh window: written as the program writes it.
    const entries = await readAsTheProgramDoes(tokenFile);
    const other = entries.find((entry) => entry.serverName === 'other');
    const secure = entries.find((entry) => entry.serverName === 'secure');
    secure!.token['expiresAt'] = Date.now() + 60_000;
    await writeFile(tokenFile, JSON.stringify(entries, null, 2), { mode: 0o600 });

    const listed = await runToolhost(['--app-dir', appDir, 'mcp', 'list'], place);
    expect(listed.stdout).toContain(`✓ secure: ${mcp.url} (http) - Connected`);
    expect(tokenEndpoint.refreshes.map((form) => [form.get('grant_type'), form.get('client_id')])).toContainEqual([
      'refresh_token',
      `${app}-client`,
    ]);

    const after = await readAsTheProgramDoes(tokenFile);
    expect(after.find((entry) => entry.serverName === 'other')).toEqual(other);
    const refreshed = after.find((entry) => entry.serverName === 'secure');
    expect(refreshed?.token).toMatchObject({ accessToken: 'refreshed-token', tokenType: 'Bearer', refreshToken: 'stored-refresh' });
    expect(refreshed).toMatchObject({ clientId: `${app}-client`, tokenUrl: tokenEndpoint.url, mcpServerUrl: mcp.url });
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
  });
});
