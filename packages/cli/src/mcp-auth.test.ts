import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fixtureBinPath, startHttpFixture } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import { type RouteAnswer, startJsonRoutesServer, startProtectedMcpServer } from '@toolhost-internal/fixtures/oauth';
import { put, putProjectSettings, runToolhost, spawnToolhost, useTrustedProject } from './testing/run-toolhost.js';

// `toolhost mcp auth` end to end with the built binary: a Streamable HTTP MCP server that wants
// bearer tokens, and an authorization server that approves without a login page (dynamic
// registration, PKCE S256, resource indicator), reached through the test-only
// `TOOLHOST_TEST_BROWSER=follow-redirects` opener or, with `--no-browser`, by the test itself.
const project = useTrustedProject('toolhost-cli-auth-');
const tokenFile = () => join(project.place.home, '.toolhost', 'mcp-oauth-tokens.json');
const followRedirects = { TOOLHOST_TEST_BROWSER: 'follow-redirects' };

/** The authorization server and the protected MCP server; tokens are only issued for a correct PKCE verifier and resource. */
async function startOAuthServers(options: { readonly tokenAnswer?: RouteAnswer } = {}) {
  const issued = new Map<string, string>();
  /** When set, the token endpoint answers refresh_token grants with this HTTP status. */
  const refresh: { failWith?: number } = {};
  const codes = new Map<string, { challenge: string; resource: string }>();
  let resource = '';
  const as = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
    const url = new URL(request.path, base);
    switch (url.pathname) {
      case '/.well-known/oauth-authorization-server':
        return {
          body: {
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            registration_endpoint: `${base}/register`,
            code_challenge_methods_supported: ['S256'],
            response_types_supported: ['code'],
            grant_types_supported: ['authorization_code', 'refresh_token'],
          },
        };
      case '/register':
        return { status: 201, body: { client_id: 'cli-client', token_endpoint_auth_method: 'none' } };
      case '/authorize': {
        const code = `code-${codes.size + 1}`;
        codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', resource: url.searchParams.get('resource') ?? '' });
        const redirect = new URL(url.searchParams.get('redirect_uri')!);
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('state', url.searchParams.get('state')!);
        return { status: 302, headers: { location: redirect.href } };
      }
      case '/token': {
        if (options.tokenAnswer) return options.tokenAnswer;
        const form = new URLSearchParams(request.body);
        if (form.get('grant_type') === 'refresh_token' && refresh.failWith !== undefined) {
          return { status: refresh.failWith, body: { error: 'temporarily_unavailable' } };
        }
        if (form.get('grant_type') === 'refresh_token') {
          if (form.get('refresh_token') !== 'rt' || form.get('resource') !== resource)
            return { status: 400, body: { error: 'invalid_grant' } };
          const token = `at-${issued.size + 1}`;
          issued.set(token, 'mcp:tools');
          return { body: { access_token: token, token_type: 'Bearer', refresh_token: 'rt', expires_in: 3600, scope: 'mcp:tools' } };
        }
        const grant = codes.get(form.get('code') ?? '');
        const verifier = createHash('sha256')
          .update(form.get('code_verifier') ?? '')
          .digest('base64url');
        if (!grant || grant.challenge !== verifier || form.get('resource') !== resource || grant.resource !== resource) {
          return { status: 400, body: { error: 'invalid_grant' } };
        }
        const token = `at-${issued.size + 1}`;
        issued.set(token, 'mcp:tools');
        return { body: { access_token: token, token_type: 'Bearer', refresh_token: 'rt', expires_in: 3600, scope: 'mcp:tools' } };
      }
      default:
        return undefined;
    }
  });
  const mcp = await startProtectedMcpServer({
    authorizationServers: () => [as.url],
    verifyAccessToken: async (token) => {
      const scope = issued.get(token);
      return scope === undefined ? undefined : { audience: resource, scope, clientId: 'cli-client' };
    },
  });
  resource = mcp.resource;
  project.cleanups.push(
    () => as.close(),
    () => mcp.close(),
  );
  return { as, mcp, refresh };
}

async function writeSettings(secureUrl: string, extra: Record<string, unknown> = {}): Promise<void> {
  await putProjectSettings(
    project.place,
    JSON.stringify({
      mcpServers: { secure: { httpUrl: secureUrl, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } }, ...extra },
    }),
  );
}

describe('toolhost mcp auth', () => {
  it('lists who needs a sign-in, authenticates, stores the token with mode 0600, and mcp list then connects', async () => {
    const { as, mcp } = await startOAuthServers();
    const open = await startHttpFixture({ behaviour: 'basic' });
    project.cleanups.push(() => open.close());
    await writeSettings(mcp.url, { open: { httpUrl: open.url }, local: { command: process.execPath, args: [fixtureBinPath('basic')] } });

    const before = await runToolhost(['mcp', 'list'], project.place);
    expect(before.stdout).toContain(
      `✗ secure: ${mcp.url} (http) - Disconnected [project]\n    Reason: needs authentication: run "toolhost mcp auth secure".\n`,
    );

    const listing = await runToolhost(['mcp', 'auth'], project.place);
    expect(listing).toEqual({
      code: 0,
      stderr: '',
      stdout: [
        'Remote MCP servers:',
        '',
        `✗ secure: ${mcp.url} (http) - Disconnected (needs authentication, no token stored) [project]`,
        '    Run "toolhost mcp auth secure" to authenticate.',
        `✓ open: ${open.url} (http) - Connected (no authentication needed) [project]`,
        '',
      ].join('\n'),
    });

    const signIn = await runToolhost(['mcp', 'auth', 'secure'], { ...project.place, env: followRedirects });
    expect(signIn.stderr).toBe('');
    expect(signIn.code).toBe(0);
    const printedUrl = /^ {2}(http\S+)$/m.exec(signIn.stdout)?.[1];
    expect(printedUrl?.startsWith(`${as.url}/authorize?`)).toBe(true);
    expect(new URL(printedUrl!).searchParams.get('resource')).toBe(mcp.resource);
    expect(signIn.stdout).toContain(`MCP server "secure" authenticated. The token is stored in ${tokenFile()}.`);
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(tokenFile(), 'utf8')) as {
      entries: Array<{ serverName: string; token: { accessToken: string } }>;
    };
    expect(stored.entries.map((entry) => [entry.serverName, entry.token.accessToken])).toEqual([['secure', 'at-1']]);

    const after = await runToolhost(['mcp', 'list'], project.place);
    expect(after.stdout).toContain(`✓ secure: ${mcp.url} (http) - Connected (MCP 2025-11-25) [project]\n`);
    expect(mcp.accepted.length).toBeGreaterThan(0);
    expect((await runToolhost(['mcp', 'auth'], project.place)).stdout).toContain(
      `✓ secure: ${mcp.url} (http) - Connected (authenticated, token valid) [project]`,
    );
    expect((await runToolhost(['mcp', 'auth', '--no-connect'], project.place)).stdout).toContain(
      `• secure: ${mcp.url} (http) - Enabled (token valid) [project]`,
    );
  });

  it('after a refresh that failed for a passing reason, mcp list says so and keeps the credentials instead of asking for a sign-in', async () => {
    const { mcp, refresh } = await startOAuthServers();
    await writeSettings(mcp.url);
    expect((await runToolhost(['mcp', 'auth', 'secure'], { ...project.place, env: followRedirects })).code).toBe(0);
    // The access token has expired, and the authorization server is down for a moment.
    const stored = JSON.parse(await readFile(tokenFile(), 'utf8')) as { entries: Array<{ token: { expiresAt?: number } }> };
    for (const entry of stored.entries) entry.token.expiresAt = Date.now() - 60_000;
    await put(tokenFile(), JSON.stringify(stored));
    refresh.failWith = 503;

    const listed = await runToolhost(['mcp', 'list'], project.place);
    expect(listed.stdout).toContain(`✗ secure: ${mcp.url} (http) - Disconnected [project]\n`);
    expect(listed.stdout).not.toContain('needs authentication');
    expect(listed.stdout).toContain(
      '    Reason: the OAuth token could not be refreshed just now (the stored credentials were kept): try again later.\n',
    );
    const kept = JSON.parse(await readFile(tokenFile(), 'utf8')) as { entries: unknown[] };
    expect(kept.entries).toHaveLength(1);

    refresh.failWith = undefined;
    expect((await runToolhost(['mcp', 'list'], project.place)).stdout).toContain(
      `✓ secure: ${mcp.url} (http) - Connected (MCP 2025-11-25) [project]`,
    );
  });

  /** Starts `toolhost <args>`, waits until it printed the authorization URL, and collects its output. */
  async function startWaitingForUser(args: string[], env: Record<string, string>) {
    const child = spawnToolhost(args, { ...project.place, env });
    project.cleanups.push(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill();
    });
    const output = { stdout: '', stderr: '' };
    child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output.stdout += chunk.toString('utf8');
        const match = /^ {2}(http\S+)$/m.exec(output.stdout);
        if (match && output.stdout.includes('Waiting for the authorization')) resolve(match[1]!);
      });
      child.once('close', () => reject(new Error(`toolhost exited early: ${output.stdout}${output.stderr}`)));
    });
    return { url, output, exited };
  }

  it('with --no-browser only prints the URL, and finishes when the user opens it', async () => {
    const { as, mcp } = await startOAuthServers();
    await writeSettings(mcp.url);
    // The test-only opener is set too, to prove that --no-browser does not open anything.
    const { url, output, exited } = await startWaitingForUser(['mcp', 'auth', 'secure', '--no-browser'], followRedirects);
    expect(output.stdout).not.toContain('Opening your browser');
    expect(as.requests.filter((request) => request.path.startsWith('/authorize'))).toHaveLength(0);
    const landed = await fetch(url, { redirect: 'follow' });
    expect(await landed.text()).toContain('Authentication complete');
    expect(await exited).toBe(0);
    expect(output.stdout).toContain('MCP server "secure" authenticated.');
    expect(existsSync(tokenFile())).toBe(true);
  });

  it('without a browser to open, warns, keeps the printed URL usable and finishes', async () => {
    const { mcp } = await startOAuthServers();
    await writeSettings(mcp.url);
    // No xdg-open on an empty PATH: the safe default opener fails to start.
    const emptyPath = join(project.root, 'empty-path');
    await mkdir(emptyPath);
    const { url, output, exited } = await startWaitingForUser(['mcp', 'auth', 'secure'], { PATH: emptyPath });
    await fetch(url, { redirect: 'follow' }).then((response) => response.text());
    expect(await exited).toBe(0);
    expect(output.stdout).toContain('Opening your browser.');
    expect(output.stderr).toMatch(/^Warning \[BROWSER_OPEN_FAILED\]: Could not open a browser .*open the URL above yourself\.\n$/);
    expect(existsSync(tokenFile())).toBe(true);
  });

  it('fails with a code and a message naming the server', async () => {
    const { mcp } = await startOAuthServers();
    await putProjectSettings(
      project.place,
      JSON.stringify({
        mcpServers: {
          secure: { httpUrl: mcp.url, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
          local: { command: 'node' },
          shut: { httpUrl: mcp.url },
          google: {
            httpUrl: 'https://example.googleapis.com/mcp',
            authProviderType: 'google_credentials',
            oauth: { scopes: ['https://www.googleapis.com/auth/cloud-platform'] },
          },
        },
        mcp: { excluded: ['shut'] },
      }),
    );
    const missing = await runToolhost(['mcp', 'auth', 'nope'], project.place);
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr: "Error [SERVER_NOT_FOUND]: Server 'nope' not found. Use 'toolhost mcp auth' to see the remote servers.\n",
    });
    const local = await runToolhost(['mcp', 'auth', 'local'], project.place);
    expect([local.code, local.stderr]).toEqual([
      1,
      'Error [NOT_A_REMOTE_SERVER]: MCP server "local" is a local (stdio) server; OAuth applies to remote (sse, http) servers only.\n',
    ]);
    const blocked = await runToolhost(['mcp', 'auth', 'shut'], project.place);
    expect([blocked.code, blocked.stderr]).toEqual([
      1,
      'Error [SERVER_BLOCKED]: MCP server "shut" is blocked by the mcp.excluded setting. A blocked server is never connected, so there is nothing to authenticate.\n',
    ]);
    const google = await runToolhost(['mcp', 'auth', 'google'], project.place);
    expect([google.code, google.stderr.slice(0, 28)]).toEqual([1, 'Error [NO_BROWSER_SIGN_IN]: ']);
    expect(google.stderr).toContain('"google"');
    const badOpener = await runToolhost(['mcp', 'auth', 'secure'], { ...project.place, env: { TOOLHOST_TEST_BROWSER: 'chrome' } });
    expect([badOpener.code, badOpener.stderr.slice(0, 29)]).toEqual([1, 'Error [INVALID_ENVIRONMENT]: ']);
    expect(existsSync(tokenFile())).toBe(false);
  });

  it('reports a refused sign-in with the OAuth error code, opens nothing and stores nothing', async () => {
    const { as, mcp } = await startOAuthServers();
    // An authorization endpoint that is not http(s) must never reach a browser.
    await putProjectSettings(
      project.place,
      JSON.stringify({
        mcpServers: {
          secure: { httpUrl: mcp.url, oauth: { redirectUri: 'http://localhost:0/oauth/callback', authorizationUrl: 'file:///etc/passwd' } },
        },
      }),
    );
    const refused = await runToolhost(['mcp', 'auth', 'secure'], { ...project.place, env: followRedirects });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^Error \[UNSAFE_URL\]: .*'secure'/);
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(refused.stdout).not.toContain('file:');
    expect(as.requests.filter((request) => request.path.startsWith('/authorize') || request.path.startsWith('/register'))).toHaveLength(0);
    expect(existsSync(tokenFile())).toBe(false);
  });

  it('shows an error_description with terminal escapes and a forged log line visibly escaped, never raw', async () => {
    const hostile = 'bad code\u001b[2J\u001b]0;pwned\u0007\u202e\n[INFO] signed in as admin\r';
    const { mcp } = await startOAuthServers({ tokenAnswer: { status: 400, body: { error: 'invalid_grant', error_description: hostile } } });
    await writeSettings(mcp.url);
    const failed = await runToolhost(['mcp', 'auth', 'secure'], { ...project.place, env: followRedirects });
    expect(failed.code).toBe(1);
    const output = failed.stdout + failed.stderr;
    // eslint-disable-next-line no-control-regex -- raw control characters are what must not appear
    expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(output).not.toMatch(/^\[INFO\]/m);
    expect(failed.stderr).toContain(
      "Error [TOKEN_EXCHANGE_FAILED]: Could not exchange the authorization code for MCP server 'secure': invalid_grant - bad code\\u001b[2J\\u001b]0;pwned\\u0007\\u202e\\u000a[INFO] signed in as admin\\u000d.",
    );
    expect(existsSync(tokenFile())).toBe(false);
  });

  it('says when there is no remote server', async () => {
    await putProjectSettings(project.place, JSON.stringify({ mcpServers: { local: { command: 'node' } } }));
    expect(await runToolhost(['mcp', 'auth'], project.place)).toEqual({
      code: 0,
      stdout: 'No remote MCP servers configured; OAuth applies to sse and http servers.\n',
      stderr: '',
    });
  });
});
