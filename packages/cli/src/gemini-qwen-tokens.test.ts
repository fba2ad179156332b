import { createHash } from 'node:crypto';
import { chmod, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import { authorizationServerMetadata, startJsonRoutesServer, startProtectedMcpServer } from '@toolhost-internal/fixtures/oauth';
import { put, runToolhost, useTrustedProject } from './testing/run-toolhost.js';

// `toolhost --app-dir .gemini` / `.qwen` with the built binary shares the OAuth tokens of Gemini CLI
// and Qwen Code: their token file (a JSON array, written here by hand in their format) is read, and a
// sign-in is written back in their format, leaving their other entries as they were.
const project = useTrustedProject('toolhost-cli-foreign-tokens-');
const followRedirects = { TOOLHOST_TEST_BROWSER: 'follow-redirects' };
const FAR_FUTURE = 4_102_444_800_000; // 2100-01-01

/** Another server's entry, as Gemini CLI's `saveToken` stores it. */
const otherEntry = {
  serverName: 'other',
  token: { accessToken: 'other-token', tokenType: 'Bearer', refreshToken: 'other-rt', scope: 'read', expiresAt: FAR_FUTURE },
  clientId: 'other-client',
  tokenUrl: 'https://other.example/token',
  mcpServerUrl: 'https://other.example/mcp',
  updatedAt: 1_700_000_000_000,
};

/** An authorization server that registers clients and issues a token for a correct PKCE verifier, and the protected MCP server. */
async function startOAuthServers() {
  const issued = new Set<string>();
  const codes = new Map<string, string>();
  let resource = '';
  const as = await startJsonRoutesServer((request, base) => {
    const url = new URL(request.path, base);
    switch (url.pathname) {
      case '/.well-known/oauth-authorization-server':
        return { body: authorizationServerMetadata(base, { grant_types_supported: ['authorization_code', 'refresh_token'] }) };
      case '/register':
        return { status: 201, body: { client_id: 'toolhost-client', token_endpoint_auth_method: 'none' } };
      case '/authorize': {
        const code = `code-${codes.size + 1}`;
        codes.set(code, url.searchParams.get('code_challenge') ?? '');
        const redirect = new URL(url.searchParams.get('redirect_uri')!);
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('state', url.searchParams.get('state')!);
        return { status: 302, headers: { location: redirect.href } };
      }
      case '/token': {
        const form = new URLSearchParams(request.body);
        const challenge = createHash('sha256')
          .update(form.get('code_verifier') ?? '')
          .digest('base64url');
        if (codes.get(form.get('code') ?? '') !== challenge || form.get('resource') !== resource)
          return { status: 400, body: { error: 'invalid_grant' } };
        const token = `at-${issued.size + 1}`;
        issued.add(token);
        return { body: { access_token: token, token_type: 'Bearer', refresh_token: 'rt', expires_in: 3600, scope: 'mcp:tools' } };
      }
      default:
        return undefined;
    }
  });
  const mcp = await startProtectedMcpServer({
    authorizationServers: () => [as.url],
    verifyAccessToken: async (token) =>
      issued.has(token) || token === 'stored-token' ? { audience: resource, scope: 'mcp:tools', clientId: 'toolhost-client' } : undefined,
  });
  resource = mcp.resource;
  project.cleanups.push(
    () => as.close(),
    () => mcp.close(),
  );
  return { as, mcp };
}

describe.each([
  ['Gemini CLI', '.gemini'],
  ['Qwen Code', '.qwen'],
])('toolhost --app-dir with the token file of %s (~/%s)', (_app, appDir) => {
  const tokenFile = () => join(project.place.home, appDir, 'mcp-oauth-tokens.json');
  const writeUserSettings = (servers: Record<string, unknown>) =>
    put(join(project.place.home, appDir, 'settings.json'), JSON.stringify({ mcpServers: servers }));
  /** Writes the token file as the program does: `JSON.stringify(array, null, 2)`, mode 0600. */
  const putTokens = async (entries: unknown[]) => {
    await put(tokenFile(), JSON.stringify(entries, null, 2));
    await chmod(tokenFile(), 0o600);
  };

  it('shows the tokens the program stored, and mcp list connects with them', async () => {
    const { mcp } = await startOAuthServers();
    await writeUserSettings({ secure: { httpUrl: mcp.url }, docs: { httpUrl: 'https://docs.example/mcp' } });
    await putTokens([
      otherEntry,
      {
        serverName: 'secure',
        token: { accessToken: 'stored-token', tokenType: 'Bearer', expiresAt: FAR_FUTURE },
        clientId: 'toolhost-client',
        mcpServerUrl: mcp.url,
        updatedAt: 1_750_000_000_000,
      },
    ]);
    const before = await readFile(tokenFile(), 'utf8');
    const listing = await runToolhost(['--app-dir', appDir, 'mcp', 'auth', '--no-connect'], project.place);
    expect(listing).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'Remote MCP servers:',
        '',
        `• secure: ${mcp.url} (http) - Enabled (token valid) [user]`,
        '• docs: https://docs.example/mcp (http) - Enabled (no token stored) [user]',
        '',
      ].join('\n'),
    });
    const listed = await runToolhost(['--app-dir', appDir, 'mcp', 'list'], project.place);
    expect(listed.stdout).toContain(`✓ secure: ${mcp.url} (http) - Connected (MCP 2025-11-25) [user]\n`);
    expect(mcp.accepted.length).toBeGreaterThan(0);
    expect(await readFile(tokenFile(), 'utf8')).toBe(before);
  });

  it("signs in and stores the token in the program's format, keeping its other entries, mode 0600", async () => {
    const { mcp } = await startOAuthServers();
    await writeUserSettings({ secure: { httpUrl: mcp.url, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } } });
    await putTokens([otherEntry]);
    const signIn = await runToolhost(['--app-dir', appDir, 'mcp', 'auth', 'secure'], { ...project.place, env: followRedirects });
    expect([signIn.code, signIn.stderr]).toEqual([0, '']);
    expect(signIn.stdout).toContain(`MCP server "secure" authenticated. The token is stored in ${tokenFile()}.`);
    const text = await readFile(tokenFile(), 'utf8');
    const entries = JSON.parse(text) as Array<Record<string, unknown>>;
    expect(Array.isArray(entries)).toBe(true);
    expect(text).toBe(JSON.stringify(entries, null, 2));
    expect(entries[0]).toEqual(otherEntry);
    expect(entries[1]).toMatchObject({
      serverName: 'secure',
      token: { accessToken: 'at-1', tokenType: 'Bearer', refreshToken: 'rt', scope: 'mcp:tools', expiresAt: expect.any(Number) },
      clientId: 'toolhost-client',
      tokenUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/token$/),
      mcpServerUrl: mcp.url,
      updatedAt: expect.any(Number),
    });
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    expect((await runToolhost(['--app-dir', appDir, 'mcp', 'list'], project.place)).stdout).toContain(
      `✓ secure: ${mcp.url} (http) - Connected (MCP 2025-11-25) [user]\n`,
    );
  });

  it('refuses to write a token file it does not recognise and leaves it as it was', async () => {
    const { as, mcp } = await startOAuthServers();
    await writeUserSettings({ secure: { httpUrl: mcp.url, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } } });
    const contents = '{\n  "servers": {"other": "other-token"}\n}\n';
    await put(tokenFile(), contents);
    const signIn = await runToolhost(['--app-dir', appDir, 'mcp', 'auth', 'secure'], { ...project.place, env: followRedirects });
    expect(signIn.code).toBe(1);
    expect(signIn.stderr).toBe(
      `Error [STORE_FAILED]: The OAuth token file ${tokenFile()} was not recognised: it is not a JSON array of entries, the layout ${_app} uses. ` +
        'toolhost left it unchanged and writes no token to it; move it away or repair it, then sign in again.\n',
    );
    expect(as.requests.filter((request) => request.path.startsWith('/authorize'))).toHaveLength(0);
    expect(await readFile(tokenFile(), 'utf8')).toBe(contents);
  });
});

describe('toolhost --app-dir with encrypted token storage switched on', () => {
  it.each([
    ['.gemini', 'GEMINI_FORCE_ENCRYPTED_FILE_STORAGE', 'GEMINI_FORCE_FILE_STORAGE'],
    ['.qwen', 'QWEN_CODE_FORCE_ENCRYPTED_FILE_STORAGE', 'QWEN_CODE_FORCE_FILE_STORAGE'],
  ])('%s: says the OS keychain is not supported and what to set, instead of using the plain file', async (appDir, encrypted, fileOnly) => {
    await put(
      join(project.place.home, appDir, 'settings.json'),
      JSON.stringify({ mcpServers: { docs: { httpUrl: 'https://docs.example/mcp' } } }),
    );
    await writeFile(join(project.place.home, appDir, 'mcp-oauth-tokens.json'), JSON.stringify([otherEntry], null, 2));
    const listing = await runToolhost(['--app-dir', appDir, 'mcp', 'auth', '--no-connect'], {
      ...project.place,
      env: { [encrypted]: 'true' },
    });
    expect(listing.code).toBe(1);
    expect(listing.stderr).toMatch(
      new RegExp(`^Error \\[STORE_FAILED\\]: ${encrypted}=true: .* OS keychain, which toolhost cannot read or write`),
    );
    expect(listing.stderr).toContain(`Set ${fileOnly}=true for both`);
  });
});
