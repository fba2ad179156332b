// DPoP (RFC 9449, the MCP DPoP extension) through McpToolHost, with the settings and the token file
// in a temporary home: an authorization server that issues DPoP-bound tokens and requires its
// nonce, and a protected MCP server that requires its own nonce and checks every proof with jose
// (signature, htm, htu, iat, jti, ath, and the key the token is bound to).
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedirectFollowingOpener, type StoredOAuthCredentials } from '@toolhost/oauth';
import { dpopKeyThumbprint } from '@toolhost/oauth/protocol';
import { FileTokenStore } from '@toolhost/oauth/token-files';
import { afterEach, describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import { accessTokenHashOf, startDpopAuthorizationServer, startProtectedMcpServer } from '@toolhost-internal/fixtures/oauth';
import { McpToolHost } from './mcp-tool-host.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(appDir: string) {
  const home = await mkdtemp(join(tmpdir(), 'toolhost-dpop-host-'));
  const project = join(home, 'project');
  await mkdir(project, { recursive: true });
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  const as = await startDpopAuthorizationServer({ nonce: 'required' });
  const mcp = await startProtectedMcpServer({
    authorizationServers: () => [as.url],
    verifyAccessToken: as.verifyAccessToken,
    dpop: { nonce: 'required' },
  });
  cleanups.push(as.close, mcp.close);
  const folder = join(home, appDir);
  await mkdir(folder, { recursive: true });
  const oauth = { enabled: true, redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true };
  await writeFile(join(folder, 'settings.json'), JSON.stringify({ mcpServers: { bank: { httpUrl: mcp.url, trust: true, oauth } } }));
  const opener = createRedirectFollowingOpener();
  const createHost = async () => {
    const host = await McpToolHost.create({
      appDir,
      homeDir: home,
      projectDir: project,
      env: {},
      ui: { openBrowser: (url) => opener(url) },
    });
    cleanups.push(() => host.close());
    return host;
  };
  const tokens = new FileTokenStore({ homeDir: home, appDir, env: {} });
  return { as, mcp, folder, createHost, tokens };
}

async function whoami(host: McpToolHost): Promise<void> {
  const result = await host.callTool({ name: 'whoami', arguments: {} });
  expect(result.error).toBeUndefined();
}

describe.each([
  ['toolhost', '.toolhost', 'mcp-oauth-tokens.json'],
  ['Gemini CLI', '.gemini', 'toolhost-dpop-keys.json'],
])("McpToolHost with DPoP, tokens in %s's layout", (_layout, appDir, keyFile) => {
  it('signs in with a proof (nonce answered), calls with fresh proofs bound to the token, and keeps the key (0600) across restarts and refreshes', async () => {
    const { as, mcp, folder, createHost, tokens } = await start(appDir);
    const host = await createHost();
    await host.discover(); // oauth.enabled: signs in
    expect(host.servers.status().servers.map((s) => [s.name, s.status, s.lastError])).toEqual([['bank', 'CONNECTED', undefined]]);
    await whoami(host);
    await whoami(host);

    const stored = (await tokens.get('bank')) as StoredOAuthCredentials;
    expect(stored.token.tokenType).toBe('DPoP');
    expect(stored.dpopKey?.alg).toBe('ES256');
    const jkt = await dpopKeyThumbprint(stored.dpopKey!);
    // The token request carried a proof of that key; the nonce the server asked for came in the retry.
    expect(as.tokenRequests.map((r) => [r.grantType, r.status, r.error, r.proof?.jkt, r.proof?.nonce])).toEqual([
      ['authorization_code', 400, 'use_dpop_nonce', jkt, undefined],
      ['authorization_code', 200, undefined, jkt, 'as-nonce-0'],
    ]);
    expect(as.tokens.get(stored.token.accessToken)?.jkt).toBe(jkt);
    // The key lives with the tokens, mode 0600.
    expect((await stat(join(folder, keyFile))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(folder, keyFile), 'utf8')).toContain(String(stored.dpopKey?.privateJwk['d']));

    // Every MCP request: Authorization: DPoP and a proof of the key, for this token, never reused.
    const presented = mcp.seen.filter((request) => request.scheme !== undefined);
    expect(new Set(presented.map((request) => request.scheme))).toEqual(new Set(['DPoP']));
    expect(presented.every((request) => request.dpopProof?.jkt === jkt)).toBe(true);
    expect(presented.every((request) => request.dpopProof?.ath === accessTokenHashOf(stored.token.accessToken))).toBe(true);
    const jtis = presented.map((request) => request.dpopProof?.jti);
    expect(new Set(jtis).size).toBe(jtis.length);
    // The MCP server's nonce: one challenge, then remembered.
    expect(presented.filter((request) => request.status === 401)).toHaveLength(1);
    expect(presented.at(-1)?.dpopProof?.nonce).toBe('rs-nonce-1');
    await host.close();

    // A new host (a restart) uses the stored token with the stored key: no new token request.
    const seenBefore = mcp.seen.length;
    const restarted = await createHost();
    await restarted.discover();
    await whoami(restarted);
    expect(as.tokenRequests).toHaveLength(2);
    const afterRestart = mcp.seen.slice(seenBefore).filter((request) => request.scheme !== undefined);
    expect(afterRestart.length).toBeGreaterThan(0);
    expect(afterRestart.every((request) => request.dpopProof?.jkt === jkt)).toBe(true);
    expect(afterRestart.at(-1)?.status).toBe(200);
    await restarted.close();

    // The token now expires within the refresh window: the next host refreshes with the same key
    // (the authorization server refuses a refresh proven with another one), and keeps it.
    await tokens.set({ ...stored, token: { ...stored.token, expiresAt: Date.now() + 60_000 } });
    const refreshing = await createHost();
    await refreshing.discover();
    await whoami(refreshing);
    const refresh = as.tokenRequests.filter((r) => r.grantType === 'refresh_token');
    expect(refresh.map((r) => [r.status, r.proof?.jkt])).toEqual([
      [400, jkt],
      [200, jkt],
    ]);
    const refreshed = await tokens.get('bank');
    expect(refreshed?.token.accessToken).not.toBe(stored.token.accessToken);
    expect(refreshed?.dpopKey).toEqual(stored.dpopKey);
    expect(as.tokens.get(refreshed!.token.accessToken)?.jkt).toBe(jkt);
    expect(mcp.accepted.at(-1)?.jkt).toBe(jkt);
  });
});
