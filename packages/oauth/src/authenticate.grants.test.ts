import { generateKeyPairSync, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import type { OAuthError } from './oauth-error.js';
import { createAuthProvider } from './create-auth-provider.js';
import { StoredTokenOAuthProvider } from './stored-token-provider.js';
import { startJsonRoutesServer, type RouteAnswer, type SeenRequest } from '@toolhost-internal/fixtures/oauth';

// Grants without a browser: client credentials (SEP-1046) and enterprise-managed authorization
// (ID token -> ID-JAG at the IdP -> access token with the jwt-bearer grant), against scripted
// loopback servers that record every request.
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

type TokenHandler = (form: Record<string, string>, request: SeenRequest) => RouteAnswer;

async function scriptedServer(options: { metadata?: Record<string, unknown>; token?: TokenHandler; idpToken?: TokenHandler } = {}) {
  let issued = 0;
  const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
    const form = Object.fromEntries(new URLSearchParams(request.body));
    switch (new URL(request.path, base).pathname) {
      case '/mcp':
        return { status: 401, body: {}, headers: { 'www-authenticate': `Bearer scope="tools:read", resource_metadata="${base}/prm"` } };
      case '/prm':
        return { body: { resource: `${base}/mcp`, authorization_servers: [base] } };
      case '/.well-known/oauth-authorization-server':
        return {
          body: {
            issuer: base,
            token_endpoint: `${base}/token`,
            grant_types_supported: ['client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer'],
            token_endpoint_auth_methods_supported: ['client_secret_basic', 'private_key_jwt'],
            ...options.metadata,
          },
        };
      case '/token':
        return options.token?.(form, request) ?? { body: { access_token: `at-${++issued}`, token_type: 'Bearer', expires_in: 3600 } };
      case '/idp/token':
        return (
          options.idpToken?.(form, request) ?? {
            body: { access_token: 'the-id-jag', issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag', token_type: 'N_A' },
          }
        );
      default:
        return undefined;
    }
  });
  servers.push(server);
  return server;
}

const form = (request: SeenRequest | undefined) => Object.fromEntries(new URLSearchParams(request?.body ?? ''));
const find = (requests: SeenRequest[], path: string) => requests.filter((r) => r.path.split('?')[0] === path);
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const noBrowser = async () => {
  throw new Error('no browser may open for this grant');
};

describe('authenticate() with grantType client_credentials', () => {
  it('uses client_secret_basic, sends scope and resource, stores the token with its grant type and opens no browser', async () => {
    const server = await scriptedServer();
    const tokenStore = new InMemoryTokenStore();
    const credentials = await authenticate(
      'm2m',
      { httpUrl: `${server.url}/mcp`, oauth: { grantType: 'client_credentials', clientId: 'svc', clientSecret: 's3cret' } },
      { tokenStore, openBrowser: noBrowser },
    );
    const [token] = find(server.requests, '/token');
    expect(form(token)).toEqual({ grant_type: 'client_credentials', scope: 'tools:read', resource: `${server.url}/mcp` });
    expect(token?.headers.authorization).toBe(basic('svc', 's3cret'));
    expect(credentials).toMatchObject({
      grantType: 'client_credentials',
      token: { accessToken: 'at-1', scope: 'tools:read' },
      client: { clientId: 'svc', source: 'configured' },
    });
    expect(await tokenStore.get('m2m')).toEqual(credentials);
  });

  it('authenticates with a private_key_jwt assertion whose audience is the issuer', async () => {
    const server = await scriptedServer();
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    await authenticate(
      'm2m',
      {
        httpUrl: `${server.url}/mcp`,
        oauth: {
          grantType: 'client_credentials',
          clientId: 'svc',
          privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        },
      },
      { openBrowser: noBrowser },
    );
    const [token] = find(server.requests, '/token');
    const body = form(token);
    expect(token?.headers.authorization).toBeUndefined();
    expect(body).toMatchObject({
      grant_type: 'client_credentials',
      client_id: 'svc',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    });
    const [header, payload, signature] = body.client_assertion!.split('.');
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ iss: 'svc', sub: 'svc', aud: server.url });
    expect(
      verify(
        'sha256',
        Buffer.from(`${header}.${payload}`),
        { key: publicKey, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature!, 'base64url'),
      ),
    ).toBe(true);
  });

  it('refuses a server that does not advertise the grant, and an entry without secret or key; nothing is stored', async () => {
    const server = await scriptedServer({ metadata: { grant_types_supported: ['authorization_code'] } });
    const tokenStore = new InMemoryTokenStore();
    const unsupported = await authenticate(
      'm2m',
      { httpUrl: `${server.url}/mcp`, oauth: { grantType: 'client_credentials', clientId: 'svc', clientSecret: 'x' } },
      { tokenStore },
    ).catch((e: OAuthError) => e);
    expect(unsupported).toMatchObject({ code: 'GRANT_TYPE_UNSUPPORTED', serverName: 'm2m' });
    const noSecret = await authenticate(
      'm2m',
      { httpUrl: `${server.url}/mcp`, oauth: { grantType: 'client_credentials', clientId: 'svc' } },
      { tokenStore },
    ).catch((e: OAuthError) => e);
    expect(noSecret).toMatchObject({ code: 'INVALID_CONFIG' });
    expect(find(server.requests, '/token')).toHaveLength(0);
    expect(await tokenStore.list()).toEqual([]);
  });

  it('reports a refused token request with the server error code', async () => {
    const server = await scriptedServer({
      token: () => ({ status: 401, body: { error: 'invalid_client', error_description: 'bad secret' } }),
    });
    const error = await authenticate('m2m', {
      httpUrl: `${server.url}/mcp`,
      oauth: { grantType: 'client_credentials', clientId: 'svc', clientSecret: 'x' },
    }).catch((e: OAuthError) => e);
    expect(error).toMatchObject({ code: 'TOKEN_EXCHANGE_FAILED', oauthErrorCode: 'invalid_client' });
    expect((error as OAuthError).message).toContain('obtain a client credentials token');
  });

  it('lets the stored-token provider obtain and renew client credentials tokens without the user', async () => {
    const server = await scriptedServer();
    const tokenStore = new InMemoryTokenStore();
    let now = 1_000_000;
    const config = {
      httpUrl: `${server.url}/mcp`,
      oauth: { grantType: 'client_credentials' as const, clientId: 'svc', clientSecret: 'x' },
    };
    const provider = new StoredTokenOAuthProvider({ serverName: 'm2m', config, tokenStore, now: () => now });
    expect((await provider.tokens())?.access_token).toBe('at-1');
    expect((await provider.tokens())?.access_token).toBe('at-1');
    now += 3_400_000; // within 5 minutes of expiry, no refresh token: the grant runs again
    expect((await provider.tokens())?.access_token).toBe('at-2');
    expect(find(server.requests, '/token')).toHaveLength(2);
  });
});

describe('authenticate() with grantType enterprise_managed', () => {
  const entry = (base: string, idp: Record<string, unknown> = {}) => ({
    httpUrl: `${base}/mcp`,
    oauth: {
      grantType: 'enterprise_managed' as const,
      clientId: 'mcp-client',
      clientSecret: 'mcp-secret',
      idp: { clientId: 'idp-client', clientSecret: 'idp-secret', tokenUrl: `${base}/idp/token`, ...idp },
    },
  });

  it('exchanges the ID token for an ID-JAG at the IdP, then redeems it with the jwt-bearer grant', async () => {
    const server = await scriptedServer();
    const credentials = await authenticate('xaa', entry(server.url), { idpIdToken: async () => 'the-id-token', openBrowser: noBrowser });
    const [exchange] = find(server.requests, '/idp/token');
    expect(form(exchange)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
      audience: server.url,
      resource: `${server.url}/mcp`,
      scope: 'tools:read',
      subject_token: 'the-id-token',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
      client_id: 'idp-client',
      client_secret: 'idp-secret',
    });
    const [token] = find(server.requests, '/token');
    expect(form(token)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'the-id-jag',
      scope: 'tools:read',
      resource: `${server.url}/mcp`,
    });
    expect(token?.headers.authorization).toBe(basic('mcp-client', 'mcp-secret'));
    expect(credentials).toMatchObject({ grantType: 'enterprise_managed', token: { accessToken: 'at-1' } });
  });

  it('discovers the IdP token endpoint from its issuer and takes the ID token from the entry', async () => {
    const idp = await startJsonRoutesServer((request, base) =>
      request.path === '/.well-known/oauth-authorization-server'
        ? { body: { issuer: base, token_endpoint: `${base}/exchange` } }
        : request.path === '/exchange'
          ? { body: { access_token: 'jag-2', token_type: 'N_A' } }
          : undefined,
    );
    servers.push(idp);
    const server = await scriptedServer();
    await authenticate('xaa', entry(server.url, { tokenUrl: undefined, issuer: idp.url, idToken: 'configured-id-token' }));
    expect(form(find(idp.requests, '/exchange')[0])).toMatchObject({ subject_token: 'configured-id-token' });
    expect(form(find(server.requests, '/token')[0])).toMatchObject({ assertion: 'jag-2' });
  });

  it('lets the provider from createAuthProvider obtain a token when the host supplies the ID token, and not without it', async () => {
    const server = await scriptedServer();
    const tokenStore = new InMemoryTokenStore();
    const withoutIdToken = createAuthProvider({ serverName: 'xaa', config: entry(server.url), tokenStore });
    expect(await withoutIdToken.tokens()).toBeUndefined();
    const provider = createAuthProvider({
      serverName: 'xaa',
      config: entry(server.url),
      tokenStore,
      idpIdToken: async () => 'host-id-token',
    });
    expect((await provider.tokens())?.access_token).toBe('at-1');
    expect(form(find(server.requests, '/idp/token')[0])).toMatchObject({ subject_token: 'host-id-token' });
  });

  it('fails with ID_JAG_EXCHANGE_FAILED when the IdP refuses, and with INVALID_CONFIG without an ID token', async () => {
    const server = await scriptedServer({ idpToken: () => ({ status: 400, body: { error: 'access_denied' } }) });
    const tokenStore = new InMemoryTokenStore();
    const refused = await authenticate('xaa', entry(server.url), { tokenStore, idpIdToken: 'tok' }).catch((e: OAuthError) => e);
    expect(refused).toMatchObject({ code: 'ID_JAG_EXCHANGE_FAILED', oauthErrorCode: 'access_denied' });
    const missing = await authenticate('xaa', entry(server.url), { tokenStore }).catch((e: OAuthError) => e);
    expect(missing).toMatchObject({ code: 'INVALID_CONFIG' });
    expect(find(server.requests, '/token')).toHaveLength(0);
    expect(await tokenStore.list()).toEqual([]);
  });
});
