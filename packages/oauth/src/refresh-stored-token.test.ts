import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { getAuthStatus } from './get-auth-status.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { isTokenExpiring, refreshStoredToken } from './refresh-stored-token.js';
import { StoredTokenOAuthProvider } from './stored-token-provider.js';
import { startJsonRoutesServer, type RouteAnswer } from './testing/json-routes-server.js';
import type { StoredOAuthCredentials } from './token-store.js';

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const NOW = 1_700_000_000_000;
const fetch = (input: string | URL, init?: RequestInit) => globalThis.fetch(input, init);
/** The MCP server (mcp.example) runs on this machine, so its token endpoint on loopback passes the URL guard. */
const resolveHost = async (): Promise<string[]> => ['127.0.0.1'];

async function tokenServer(answer: () => RouteAnswer) {
  const server = await startJsonRoutesServer((request) => (request.path === '/token' ? answer() : undefined));
  servers.push(server);
  return server;
}

function credentials(
  tokenEndpoint: string,
  overrides: Partial<StoredOAuthCredentials['token']> = {},
  client: Partial<StoredOAuthCredentials['client']> = {},
): StoredOAuthCredentials {
  return {
    serverName: 'srv',
    issuer: 'https://as.example',
    mcpServerUrl: 'https://mcp.example/mcp',
    resource: 'https://mcp.example/mcp',
    tokenEndpoint,
    client: { clientId: 'client-1', source: 'dynamic-registration', ...client },
    token: {
      accessToken: 'old-access',
      tokenType: 'Bearer',
      refreshToken: 'old-refresh',
      expiresAt: NOW + 60_000,
      scope: 'a b',
      ...overrides,
    },
    updatedAt: NOW - 1000,
  };
}

describe('token refresh', () => {
  it('counts a token as expiring 5 minutes before its expiry, never without one', () => {
    expect(isTokenExpiring({ accessToken: 'x', tokenType: 'Bearer', expiresAt: NOW + 300_001 }, NOW)).toBe(false);
    expect(isTokenExpiring({ accessToken: 'x', tokenType: 'Bearer', expiresAt: NOW + 300_000 }, NOW)).toBe(true);
    expect(isTokenExpiring({ accessToken: 'x', tokenType: 'Bearer' }, NOW)).toBe(false);
  });

  it('reports the stored-token status for listings', async () => {
    const tokenStore = new InMemoryTokenStore();
    expect(await getAuthStatus({ serverName: 'srv', tokenStore, now: NOW })).toBe('none');
    await tokenStore.set(credentials('http://x/token', { expiresAt: NOW + 3_600_000 }));
    expect(await getAuthStatus({ serverName: 'srv', tokenStore, now: NOW })).toBe('valid');
    expect(await getAuthStatus({ serverName: 'srv', tokenStore, now: NOW + 3_500_000 })).toBe('refreshable');
    await tokenStore.set(credentials('http://x/token', { expiresAt: NOW, refreshToken: undefined }));
    expect(await getAuthStatus({ serverName: 'srv', tokenStore, now: NOW })).toBe('expired');
  });

  it('sends refresh_token, resource and client_id, and keeps the old refresh token when none is returned', async () => {
    const server = await tokenServer(() => ({ body: { access_token: 'new-access', token_type: 'bearer', expires_in: 3600 } }));
    const tokenStore = new InMemoryTokenStore();
    const updated = await refreshStoredToken({ credentials: credentials(`${server.url}/token`), tokenStore, fetch, now: () => NOW });
    const body = new URLSearchParams(server.requests[0]!.body);
    expect(Object.fromEntries(body)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'old-refresh',
      resource: 'https://mcp.example/mcp',
      client_id: 'client-1',
    });
    expect(updated.token).toEqual({
      accessToken: 'new-access',
      tokenType: 'bearer',
      refreshToken: 'old-refresh',
      expiresAt: NOW + 3_600_000,
      scope: 'a b',
    });
    expect((await tokenStore.get('srv'))?.token.accessToken).toBe('new-access');
  });

  it('stores a rotated refresh token', async () => {
    const server = await tokenServer(() => ({ body: { access_token: 'n', refresh_token: 'rotated', expires_in: '60' } }));
    const updated = await refreshStoredToken({
      credentials: credentials(`${server.url}/token`),
      tokenStore: new InMemoryTokenStore(),
      fetch,
      now: () => NOW,
    });
    expect(updated.token.refreshToken).toBe('rotated');
    expect(updated.token.expiresAt).toBe(NOW + 60_000);
  });

  it('deletes the stored token and says to authenticate again when the refresh fails', async () => {
    const server = await tokenServer(() => ({ status: 400, body: { error: 'invalid_grant', error_description: 'revoked' } }));
    const tokenStore = new InMemoryTokenStore();
    const stored = credentials(`${server.url}/token`);
    await tokenStore.set(stored);
    const error = await refreshStoredToken({ credentials: stored, tokenStore, fetch, now: () => NOW }).catch((e: unknown) => e);
    expect((error as OAuthError).code).toBe('REFRESH_FAILED');
    expect((error as OAuthError).oauthErrorCode).toBe('invalid_grant');
    expect((error as OAuthError).message).toContain('toolhost mcp auth srv');
    expect(await tokenStore.get('srv')).toBeUndefined();
  });

  it.each(['invalid_client', 'unauthorized_client'])(
    'also deletes the stored credentials when the server answers %s',
    async (oauthError) => {
      const server = await tokenServer(() => ({ status: 401, body: { error: oauthError } }));
      const tokenStore = new InMemoryTokenStore();
      const stored = credentials(`${server.url}/token`);
      await tokenStore.set(stored);
      const error = (await refreshStoredToken({ credentials: stored, tokenStore, fetch, now: () => NOW }).catch(
        (e: unknown) => e,
      )) as OAuthError;
      expect(error).toMatchObject({ code: 'REFRESH_FAILED', oauthErrorCode: oauthError, retryable: false });
      expect(error.message).toContain('were deleted');
      expect(await tokenStore.get('srv')).toBeUndefined();
    },
  );

  describe('keeps the stored credentials when the refresh fails for a transient reason', () => {
    async function refreshKept(tokenEndpoint: string, timeoutMs?: number): Promise<OAuthError> {
      const tokenStore = new InMemoryTokenStore();
      const stored = credentials(tokenEndpoint);
      await tokenStore.set(stored);
      const error = await refreshStoredToken({
        credentials: stored,
        tokenStore,
        fetch,
        now: () => NOW,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      }).catch((e: unknown) => e);
      expect(OAuthError.isInstance(error)).toBe(true);
      expect(await tokenStore.get('srv')).toEqual(stored);
      return error as OAuthError;
    }

    it('an HTTP 5xx answer', async () => {
      const server = await tokenServer(() => ({ status: 503, body: '<html>maintenance</html>' }));
      const error = await refreshKept(`${server.url}/token`);
      expect(error).toMatchObject({ code: 'REFRESH_FAILED', retryable: true, oauthErrorCode: undefined });
      expect(error.message).toContain('HTTP 503');
      expect(error.message).toContain('The stored credentials were kept');
      expect(error.message).not.toContain('toolhost mcp auth');
    });

    it('a temporarily_unavailable answer and a 429', async () => {
      const busy = await tokenServer(() => ({ status: 400, body: { error: 'temporarily_unavailable' } }));
      expect(await refreshKept(`${busy.url}/token`)).toMatchObject({ retryable: true, oauthErrorCode: 'temporarily_unavailable' });
      const limited = await tokenServer(() => ({ status: 429, body: {} }));
      expect(await refreshKept(`${limited.url}/token`)).toMatchObject({ retryable: true });
    });

    it('a network error (nothing listens on the token endpoint)', async () => {
      const server = await startJsonRoutesServer(() => undefined);
      await server.close();
      const error = await refreshKept(`${server.url}/token`);
      expect(error).toMatchObject({ code: 'REFRESH_FAILED', retryable: true });
    });

    it('a token endpoint that does not answer in time', async () => {
      const silent = createServer(() => undefined); // accepts the request, never answers
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      servers.push({
        close: () =>
          new Promise<void>((resolve) => {
            silent.close(() => resolve());
            silent.closeAllConnections();
          }),
      });
      const started = Date.now();
      const error = await refreshKept(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/token`, 300);
      // Far above 300 ms (a busy machine), well below the 30 s default an ignored timeoutMs would wait.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(error).toMatchObject({ code: 'REFRESH_FAILED', retryable: true });
      expect(error.message).toContain('did not answer within 300 ms');
    });

    it('an OAuth error that does not reject the credentials (kept, but not retryable)', async () => {
      const server = await tokenServer(() => ({ status: 400, body: { error: 'invalid_request' } }));
      const error = await refreshKept(`${server.url}/token`);
      expect(error).toMatchObject({ code: 'REFRESH_FAILED', retryable: false, oauthErrorCode: 'invalid_request' });
      expect(error.message).toContain('toolhost mcp auth srv');
    });
  });

  it('uses client_secret_basic or client_secret_post as the client registration says', async () => {
    const server = await tokenServer(() => ({ body: 'access_token=form-token&token_type=Bearer' }));
    await refreshStoredToken({
      credentials: credentials(`${server.url}/token`, {}, { clientSecret: 's e/cret' }),
      tokenStore: new InMemoryTokenStore(),
      fetch,
      now: () => NOW,
    });
    expect(server.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from('client-1:s+e%2Fcret').toString('base64')}`);
    expect(new URLSearchParams(server.requests[0]!.body).has('client_secret')).toBe(false);
    const posted = await refreshStoredToken({
      credentials: credentials(`${server.url}/token`, {}, { clientSecret: 'sec', tokenEndpointAuthMethod: 'client_secret_post' }),
      tokenStore: new InMemoryTokenStore(),
      fetch,
      now: () => NOW,
    });
    expect(posted.token.accessToken).toBe('form-token');
    expect(server.requests[1]!.headers.authorization).toBeUndefined();
    expect(new URLSearchParams(server.requests[1]!.body).get('client_secret')).toBe('sec');
  });
});

describe('StoredTokenOAuthProvider', () => {
  const config = { httpUrl: 'https://mcp.example/mcp' };

  it('returns a valid stored token without refreshing and nothing when there is none', async () => {
    const tokenStore = new InMemoryTokenStore();
    const provider = new StoredTokenOAuthProvider({ serverName: 'srv', config, tokenStore, resolveHost, now: () => NOW });
    expect(await provider.tokens()).toBeUndefined();
    await tokenStore.set(credentials('http://127.0.0.1:9/token', { expiresAt: NOW + 3_600_000 }));
    expect(await provider.tokens()).toEqual({
      access_token: 'old-access',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'a b',
      issuer: 'https://as.example',
    });
    // The SDK's ctx.issuer (SEP-2352): a token is never handed to a flow with another authorization server.
    expect(await provider.tokens({ issuer: 'https://other-as.example' })).toBeUndefined();
    expect(await provider.clientInformation({ issuer: 'https://as.example/' })).toEqual({
      client_id: 'client-1',
      issuer: 'https://as.example',
    });
  });

  it('never sends a token stored for another server URL', async () => {
    const tokenStore = new InMemoryTokenStore();
    await tokenStore.set(credentials('http://127.0.0.1:9/token', { expiresAt: NOW + 3_600_000 }));
    const moved = new StoredTokenOAuthProvider({
      serverName: 'srv',
      config: { httpUrl: 'https://other.example/mcp' },
      tokenStore,
      now: () => NOW,
    });
    expect(await moved.tokens()).toBeUndefined();
    expect(await moved.clientInformation()).toBeUndefined();
  });

  it('refreshes once for concurrent callers when the token expires within 5 minutes', async () => {
    let calls = 0;
    const server = await tokenServer(() => ({ body: { access_token: `fresh-${++calls}`, expires_in: 3600 } }));
    const tokenStore = new InMemoryTokenStore();
    await tokenStore.set(credentials(`${server.url}/token`));
    const provider = new StoredTokenOAuthProvider({ serverName: 'srv', config, tokenStore, resolveHost, now: () => NOW });
    const [a, b] = await Promise.all([provider.tokens(), provider.tokens()]);
    expect(a?.access_token).toBe('fresh-1');
    expect(b?.access_token).toBe('fresh-1');
    expect(calls).toBe(1);
  });

  it('uses a still-valid token when its refresh fails transiently, retries 30 s later, and fails without deleting once it expired', async () => {
    let status = 503;
    let calls = 0;
    const server = await tokenServer(() => {
      calls++;
      return status === 200 ? { body: { access_token: 'fresh', expires_in: 3600 } } : { status, body: {} };
    });
    const tokenStore = new InMemoryTokenStore();
    const stored = credentials(`${server.url}/token`); // expires at NOW + 60 s: inside the 5-minute window
    await tokenStore.set(stored);
    let clock = NOW;
    const provider = new StoredTokenOAuthProvider({ serverName: 'srv', config, tokenStore, resolveHost, now: () => clock });
    expect((await provider.tokens())?.access_token).toBe('old-access');
    expect(calls).toBe(1);
    clock += 10_000;
    expect((await provider.tokens())?.access_token).toBe('old-access');
    expect(calls).toBe(1); // not retried within 30 s
    clock += 25_000;
    status = 200;
    expect((await provider.tokens())?.access_token).toBe('fresh');
    expect(calls).toBe(2);

    // The same failure once the token has expired: REFRESH_FAILED, retryable, credentials still stored.
    status = 502;
    await tokenStore.set(stored);
    clock = NOW + 61_000;
    const expired = new StoredTokenOAuthProvider({ serverName: 'srv', config, tokenStore, resolveHost, now: () => clock });
    await expect(expired.tokens()).rejects.toMatchObject({ code: 'REFRESH_FAILED', retryable: true });
    expect(await tokenStore.get('srv')).toEqual(stored);
  });

  it('deletes the credentials and fails when the server rejects the refresh token, even while the token is valid', async () => {
    const server = await tokenServer(() => ({ status: 400, body: { error: 'invalid_grant' } }));
    const tokenStore = new InMemoryTokenStore();
    await tokenStore.set(credentials(`${server.url}/token`));
    const provider = new StoredTokenOAuthProvider({ serverName: 'srv', config, tokenStore, resolveHost, now: () => NOW });
    await expect(provider.tokens()).rejects.toMatchObject({ code: 'REFRESH_FAILED', oauthErrorCode: 'invalid_grant' });
    expect(await tokenStore.get('srv')).toBeUndefined();
  });

  it('never starts a flow: the SDK hooks throw AUTH_REQUIRED naming the server and the command', async () => {
    const provider = new StoredTokenOAuthProvider({ serverName: 'github', config, tokenStore: new InMemoryTokenStore() });
    for (const hook of [() => provider.discoveryState(), () => provider.redirectToAuthorization(), () => provider.codeVerifier()]) {
      const error = (() => {
        try {
          hook();
        } catch (e) {
          return e;
        }
      })() as OAuthError;
      expect(error.code).toBe('AUTH_REQUIRED');
      expect(error.message).toBe(
        `MCP server 'github' requires authentication: run "toolhost mcp auth github" (or your host's equivalent) to authenticate.`,
      );
    }
  });

  it('records challenges through wrapFetch and limits repeated step-ups', async () => {
    const server = await startJsonRoutesServer(() => ({
      status: 403,
      body: {},
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="x y"' },
    }));
    servers.push(server);
    const provider = new StoredTokenOAuthProvider({
      serverName: 's',
      config: { httpUrl: `${server.url}/mcp` },
      tokenStore: new InMemoryTokenStore(),
      maxStepUpAttempts: 2,
    });
    await provider.wrapFetch()(`${server.url}/mcp`, { method: 'POST' });
    expect(provider.lastChallenge).toEqual({ error: 'insufficient_scope', scope: 'x y' });
    expect(provider.authRequiredError()).toMatchObject({ code: 'AUTH_REQUIRED', requiredScope: 'x y' });
    expect(provider.authRequiredError().code).toBe('AUTH_REQUIRED');
    expect(provider.authRequiredError().code).toBe('STEP_UP_LIMIT');
  });
});
