// McpToolHost with appDir `.gemini` / `.qwen` uses the OAuth tokens Gemini CLI and Qwen Code stored
// in their own token file (a JSON array, written here by hand in their format), and a refresh keeps
// that file in their format: a protected MCP server on loopback accepts only the stored (or
// refreshed) token, and the authorization server refreshes without issuing a new refresh token.
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import { authorizationServerMetadata, startJsonRoutesServer, startProtectedMcpServer } from '@toolhost-internal/fixtures/oauth';
import { McpToolHost } from './mcp-tool-host.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const FAR_FUTURE = 4_102_444_800_000; // 2100-01-01

/** Another server's entry, as Gemini CLI / Qwen Code store it; it must come through every write untouched. */
const otherEntry = {
  serverName: 'other',
  token: { accessToken: 'other-token', tokenType: 'Bearer', refreshToken: 'other-rt', expiresAt: FAR_FUTURE },
  clientId: 'other-client',
  tokenUrl: 'https://other.example/token',
  mcpServerUrl: 'https://other.example/mcp',
  updatedAt: 1_700_000_000_000,
};

async function start(appDir: string) {
  const home = await mkdtemp(join(tmpdir(), 'toolhost-foreign-host-'));
  const project = join(home, 'project');
  await mkdir(project, { recursive: true });
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  const valid = new Set(['stored-token']);
  const refreshRequests: URLSearchParams[] = [];
  let resource = '';
  const as = await startJsonRoutesServer((request, base) => {
    if (request.path === '/.well-known/oauth-authorization-server') return { body: authorizationServerMetadata(base) };
    if (request.path !== '/token') return undefined;
    const form = new URLSearchParams(request.body);
    refreshRequests.push(form);
    if (form.get('grant_type') !== 'refresh_token' || form.get('refresh_token') !== 'stored-rt' || form.get('resource') !== resource)
      return { status: 400, body: { error: 'invalid_grant' } };
    valid.add('refreshed-token');
    // No refresh_token in the answer: the stored one must stay.
    return { body: { access_token: 'refreshed-token', token_type: 'Bearer', expires_in: 3600 } };
  });
  const mcp = await startProtectedMcpServer({
    authorizationServers: () => [as.url],
    verifyAccessToken: async (token) => (valid.has(token) ? { audience: resource, scope: 'mcp:tools', clientId: 'cli-client' } : undefined),
  });
  resource = mcp.resource;
  cleanups.push(
    () => as.close(),
    () => mcp.close(),
  );
  const folder = join(home, appDir);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'settings.json'), JSON.stringify({ mcpServers: { secure: { httpUrl: mcp.url, trust: true } } }));
  const tokenFile = join(folder, 'mcp-oauth-tokens.json');
  /** Writes the token file as the program does (`JSON.stringify(array, null, 2)`, mode 0600). */
  const putTokens = async (entries: unknown[]) => {
    await writeFile(tokenFile, JSON.stringify(entries, null, 2), { mode: 0o600 });
    await chmod(tokenFile, 0o600);
  };
  const createHost = () => McpToolHost.create({ appDir, homeDir: home, projectDir: project, env: {} });
  return { as, mcp, tokenFile, putTokens, createHost, refreshRequests };
}

describe.each([
  ['Gemini CLI', '.gemini'],
  ['Qwen Code', '.qwen'],
])('McpToolHost with the tokens %s stored in ~/%s/mcp-oauth-tokens.json', (_app, appDir) => {
  it('connects with the stored token', async () => {
    const { mcp, putTokens, createHost } = await start(appDir);
    await putTokens([
      otherEntry,
      {
        serverName: 'secure',
        token: { accessToken: 'stored-token', tokenType: 'Bearer', expiresAt: FAR_FUTURE },
        clientId: 'cli-client',
        tokenUrl: 'http://127.0.0.1:1/token',
        mcpServerUrl: mcp.url,
        updatedAt: 1_750_000_000_000,
      },
    ]);
    const host = await createHost();
    try {
      await host.discover();
      expect(host.servers.status().servers.map((s) => [s.name, s.status, s.lastError])).toEqual([['secure', 'CONNECTED', undefined]]);
      const call = await host.callTool({ name: 'whoami', arguments: {} });
      expect(call.error).toBeUndefined();
      expect(mcp.accepted.length).toBeGreaterThan(0);
    } finally {
      await host.close();
    }
  });

  it('connects with an entry of an older version that records no server URL', async () => {
    const { putTokens, createHost } = await start(appDir);
    await putTokens([{ serverName: 'secure', token: { accessToken: 'stored-token', tokenType: 'Bearer' }, updatedAt: 1 }]);
    const host = await createHost();
    try {
      await host.discover();
      expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
    } finally {
      await host.close();
    }
  });

  it('reports a rejected stored token as needing a sign-in and leaves the file as it was', async () => {
    const { mcp, tokenFile, putTokens, createHost } = await start(appDir);
    await putTokens([
      {
        serverName: 'secure',
        token: { accessToken: 'revoked-token', tokenType: 'Bearer', expiresAt: FAR_FUTURE },
        clientId: 'cli-client',
        mcpServerUrl: mcp.url,
        updatedAt: 1_750_000_000_000,
      },
      otherEntry,
    ]);
    const before = await readFile(tokenFile, 'utf8');
    const host = await createHost();
    try {
      await host.discover();
      const status = host.servers.status().servers[0];
      expect([status?.status, status?.errorCode]).toEqual(['DISCONNECTED', 'AUTH_REQUIRED']);
      expect(status?.lastError).toContain("MCP server 'secure' rejected the stored OAuth token");
    } finally {
      await host.close();
    }
    expect(await readFile(tokenFile, 'utf8')).toBe(before);
  });

  it("refreshes an expired token and keeps the file in the program's format, with its refresh token and the other entries", async () => {
    const { as, mcp, tokenFile, putTokens, createHost, refreshRequests } = await start(appDir);
    const expired = {
      serverName: 'secure',
      token: { accessToken: 'expired-token', tokenType: 'Bearer', refreshToken: 'stored-rt', scope: 'mcp:tools', expiresAt: 1_000 },
      clientId: 'cli-client',
      tokenUrl: `${as.url}/token`,
      mcpServerUrl: mcp.url,
      updatedAt: 1_000,
    };
    await putTokens([expired, otherEntry]);
    const host = await createHost();
    try {
      await host.discover();
      expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
    } finally {
      await host.close();
    }
    expect(refreshRequests.map((form) => form.get('client_id'))).toEqual(['cli-client']);
    const entries = JSON.parse(await readFile(tokenFile, 'utf8')) as Array<Record<string, unknown>>;
    expect(Array.isArray(entries)).toBe(true);
    expect(entries[1]).toEqual(otherEntry);
    expect(entries[0]).toMatchObject({
      serverName: 'secure',
      token: { accessToken: 'refreshed-token', tokenType: 'Bearer', refreshToken: 'stored-rt', scope: 'mcp:tools' },
      clientId: 'cli-client',
      tokenUrl: `${as.url}/token`,
      mcpServerUrl: mcp.url,
    });
    expect(typeof entries[0]?.updatedAt).toBe('number');
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);
  });
});
