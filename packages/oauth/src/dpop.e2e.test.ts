import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from './authenticate.js';
import { dpopKeyThumbprint } from './dpop.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { StoredTokenOAuthProvider } from './stored-token-provider.js';
import { launchChromiumOpener } from './testing/chromium-opener.js';
import { accessTokenHashOf, startDpopAuthorizationServer } from './testing/dpop-servers.js';
import { startOidcAuthorizationServer } from './testing/start-oidc-authorization-server.js';
import { startProtectedMcpServer, type ProtectedMcpServerDpop } from './testing/protected-mcp-server.js';

// DPoP (RFC 9449, the MCP DPoP extension) end to end: oidc-provider issuing DPoP-bound tokens (its
// `dPoP` feature, with nonces required in one case), and a Streamable HTTP MCP server that checks
// each proof with jose (signature, htm, htu, iat, jti, ath) and its key against the token's binding.

const serviceClient = {
  client_id: 'svc',
  client_secret: 'svc-secret',
  grant_types: ['client_credentials'],
  redirect_uris: [],
  response_types: [],
  scope: 'mcp:tools',
};

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function servers(options: { asNonce?: boolean; dpop?: ProtectedMcpServerDpop | undefined }) {
  const as = await startOidcAuthorizationServer({ clients: [serviceClient], dpopNonce: options.asNonce ?? false });
  closing.push(as.close);
  const mcp = await startProtectedMcpServer({
    authorizationServers: () => [as.issuer],
    verifyAccessToken: as.verifyAccessToken,
    ...(options.dpop ? { dpop: options.dpop } : {}),
  });
  closing.push(mcp.close);
  return { as, mcp };
}

function serviceConfig(url: string, oauth: Record<string, unknown> = {}): McpServerConfig {
  return {
    httpUrl: url,
    oauth: {
      grantType: 'client_credentials',
      clientId: 'svc',
      clientSecret: 'svc-secret',
      allowPrivateNetwork: true,
      scopes: ['mcp:tools'],
      ...oauth,
    },
  };
}

async function connect(url: string, provider: StoredTokenOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'dpop-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, fetch: provider.wrapFetch() }));
  closing.push(() => client.close());
  return client;
}

describe('DPoP with the client credentials grant against oidc-provider', () => {
  it('binds the token to the stored key, answers both nonces once, and sends a fresh proof bound to the token on every MCP request', async () => {
    const { as, mcp } = await servers({ asNonce: true, dpop: { nonce: 'required' } });
    const tokenStore = new InMemoryTokenStore();
    const provider = new StoredTokenOAuthProvider({ serverName: 'svc', config: serviceConfig(mcp.url), tokenStore });
    const client = await connect(mcp.url, provider);
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'whoami', arguments: {} });

    const stored = await tokenStore.get('svc');
    expect(stored?.token.tokenType).toBe('DPoP');
    expect(stored?.dpopKey).toMatchObject({ alg: 'ES256', privateJwk: { kty: 'EC', crv: 'P-256' } });
    // oidc-provider verified the proof of the token request and bound the token to its key.
    const bound = await as.verifyAccessToken(stored!.token.accessToken);
    expect(bound?.jkt).toBe(await dpopKeyThumbprint(stored!.dpopKey!));
    // The authorization server's use_dpop_nonce was answered once, with its nonce.
    expect(as.tokenRequests.map((r) => [r.dpop, r.status])).toEqual([
      [true, 400],
      [true, 200],
    ]);
    expect(as.tokenRequests[0]?.nonce).toBeTruthy();

    const presented = mcp.seen.filter((request) => request.scheme !== undefined);
    expect(presented.length).toBeGreaterThanOrEqual(4);
    expect(new Set(presented.map((request) => request.scheme))).toEqual(new Set(['DPoP']));
    for (const request of presented) {
      expect(request.dpopError).toBeUndefined();
      expect(request.dpopProof?.jkt).toBe(bound?.jkt);
      expect(request.dpopProof?.ath).toBe(accessTokenHashOf(stored!.token.accessToken));
    }
    // A fresh proof per request: no jti twice.
    const jtis = presented.map((request) => request.dpopProof?.jti);
    expect(new Set(jtis).size).toBe(jtis.length);
    // The MCP server's nonce challenge came once; the retry and every later proof carry its nonce.
    expect(presented.filter((request) => request.status === 401)).toHaveLength(1);
    expect(presented[0]?.status).toBe(401);
    expect(presented.slice(1).map((request) => request.dpopProof?.nonce)).toEqual(presented.slice(1).map(() => 'rs-nonce-1'));
    expect(mcp.accepted.at(-1)?.jkt).toBe(bound?.jkt);
  });

  it('keeps bearer tokens with oauth.dpop false, and in auto mode when the MCP server does not offer DPoP', async () => {
    for (const [dpop, setting] of [
      [{}, false],
      [undefined, 'auto'],
    ] as const) {
      const { as, mcp } = await servers({ dpop });
      const tokenStore = new InMemoryTokenStore();
      const config = serviceConfig(mcp.url, { dpop: setting });
      const client = await connect(mcp.url, new StoredTokenOAuthProvider({ serverName: 'svc', config, tokenStore }));
      await client.callTool({ name: 'whoami', arguments: {} });
      const stored = await tokenStore.get('svc');
      expect(stored?.token.tokenType).toBe('Bearer');
      expect(stored?.dpopKey).toBeUndefined();
      expect(as.tokenRequests.map((r) => r.dpop)).toEqual([false]);
      expect(new Set(mcp.seen.flatMap((request) => request.scheme ?? []))).toEqual(new Set(['Bearer']));
    }
  });

  it('with oauth.dpop true binds the token even when neither server asks for DPoP', async () => {
    const { as, mcp } = await servers({ dpop: {} });
    const tokenStore = new InMemoryTokenStore();
    // A Bearer challenge would not do: the MCP server here offers DPoP, so only the setting decides.
    const client = await connect(
      mcp.url,
      new StoredTokenOAuthProvider({ serverName: 'svc', config: serviceConfig(mcp.url, { dpop: true }), tokenStore }),
    );
    await client.callTool({ name: 'whoami', arguments: {} });
    expect(as.tokenRequests.map((r) => r.dpop)).toEqual([true]);
    expect((await tokenStore.get('svc'))?.token.tokenType).toBe('DPoP');
  });
});

describe('DPoP in the browser sign-in against oidc-provider with headless Chromium', () => {
  let browser: Awaited<ReturnType<typeof launchChromiumOpener>>;
  beforeAll(async () => {
    browser = await launchChromiumOpener();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('binds the code exchange and the refresh to the same key, and calls with DPoP', async () => {
    const { as, mcp } = await servers({ dpop: {} });
    const tokenStore = new InMemoryTokenStore();
    const config: McpServerConfig = {
      httpUrl: mcp.url,
      oauth: { redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true, scopes: ['mcp:tools', 'offline_access'] },
    };
    const credentials = await authenticate('web', config, { tokenStore, openBrowser: browser.openBrowser });
    expect(credentials.token.tokenType).toBe('DPoP');
    expect(credentials.token.refreshToken).toBeTruthy();
    const jkt = await dpopKeyThumbprint(credentials.dpopKey!);
    expect((await as.verifyAccessToken(credentials.token.accessToken))?.jkt).toBe(jkt);

    const client = await connect(mcp.url, new StoredTokenOAuthProvider({ serverName: 'web', config, tokenStore }));
    await client.callTool({ name: 'whoami', arguments: {} });

    // 58 minutes later the provider refreshes: oidc-provider binds a public client's refresh token
    // to the key, so the refresh succeeds only with a proof of the same key.
    const later = new StoredTokenOAuthProvider({ serverName: 'web', config, tokenStore, now: () => Date.now() + 58 * 60_000 });
    const refreshedClient = await connect(mcp.url, later);
    await refreshedClient.callTool({ name: 'whoami', arguments: {} });
    const refreshed = await tokenStore.get('web');
    expect(refreshed?.token.accessToken).not.toBe(credentials.token.accessToken);
    expect(refreshed?.dpopKey).toEqual(credentials.dpopKey);
    expect((await as.verifyAccessToken(refreshed!.token.accessToken))?.jkt).toBe(jkt);
    expect(as.tokenRequests.map((r) => [r.dpop, r.status])).toEqual([
      [true, 200],
      [true, 200],
    ]);
    expect(mcp.accepted.at(-1)?.jkt).toBe(jkt);
  });
});

describe('servers that ask for a DPoP nonce forever', () => {
  it('an authorization server: the token request is retried once, then the sign-in fails naming the error', async () => {
    const as = await startDpopAuthorizationServer({ nonce: 'forever' });
    closing.push(as.close);
    const mcp = await startProtectedMcpServer({ authorizationServers: () => [as.url], verifyAccessToken: as.verifyAccessToken, dpop: {} });
    closing.push(mcp.close);
    const refused = await authenticate('hostile', serviceConfig(mcp.url), { tokenStore: new InMemoryTokenStore() }).catch(
      (error: unknown) => error,
    );
    expect(OAuthError.isInstance(refused) && refused.code).toBe('TOKEN_EXCHANGE_FAILED');
    expect((refused as OAuthError).oauthErrorCode).toBe('use_dpop_nonce');
    expect(as.tokenRequests).toHaveLength(2);
    expect(as.tokenRequests[0]?.proof?.nonce).toBeUndefined();
    expect(as.tokenRequests[1]?.proof?.nonce).toBe('as-nonce-1');
  });

  it('an MCP server: each request is repeated once with its nonce, then AUTH_REQUIRED says why', async () => {
    const as = await startDpopAuthorizationServer();
    closing.push(as.close);
    const mcp = await startProtectedMcpServer({
      authorizationServers: () => [as.url],
      verifyAccessToken: as.verifyAccessToken,
      dpop: { nonce: 'forever' },
    });
    closing.push(mcp.close);
    const tokenStore = new InMemoryTokenStore();
    const provider = new StoredTokenOAuthProvider({ serverName: 'hostile', config: serviceConfig(mcp.url), tokenStore });
    const refused = await connect(mcp.url, provider).catch((error: unknown) => error);
    expect(OAuthError.isInstance(refused) && refused.code).toBe('AUTH_REQUIRED');
    expect((refused as OAuthError).message).toContain('DPoP nonce');
    expect((refused as OAuthError).oauthErrorCode).toBe('use_dpop_nonce');
    const presented = mcp.seen.filter((request) => request.scheme === 'DPoP');
    expect(presented.map((request) => [request.status, request.dpopProof?.nonce])).toEqual([
      [401, undefined],
      [401, 'rs-nonce-1'],
    ]);
  });
});
