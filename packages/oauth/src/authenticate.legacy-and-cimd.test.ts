import { afterEach, describe, expect, it } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { createRedirectFollowingOpener } from './redirect-following-opener.js';
import { startJsonRoutesServer, type RouteAnswer, type SeenRequest } from './testing/json-routes-server.js';

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function approve(url: URL): RouteAnswer {
  const redirect = new URL(url.searchParams.get('redirect_uri')!);
  redirect.searchParams.set('code', 'the-code');
  redirect.searchParams.set('state', url.searchParams.get('state')!);
  return { status: 302, headers: { location: redirect.href } };
}

const paths = (requests: SeenRequest[]) => requests.map((r) => `${r.method} ${r.path.split('?')[0]}`);
const form = (request: SeenRequest | undefined) => Object.fromEntries(new URLSearchParams(request?.body ?? ''));
const CIMD_URL = 'https://client.example/toolhost/client-metadata.json';

describe('authenticate() against a 2025-03-26 server without metadata', () => {
  it('falls back to /authorize, /token and /register at the server origin, with PKCE and resource', async () => {
    const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
      const url = new URL(request.path, base);
      if (url.pathname === '/api/mcp') return { status: 401, body: {}, headers: { 'www-authenticate': 'Bearer' } };
      if (url.pathname === '/register') return { status: 201, body: { client_id: 'legacy-client' } };
      if (url.pathname === '/authorize') return approve(url);
      if (url.pathname === '/token') return { body: { access_token: 'legacy-at', token_type: 'Bearer' } };
      return undefined;
    });
    servers.push(server);
    const tokenStore = new InMemoryTokenStore();
    const credentials = await authenticate(
      'legacy',
      { httpUrl: `${server.url}/api/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
      {
        tokenStore,
        openBrowser: createRedirectFollowingOpener(),
      },
    );
    expect(paths(server.requests)).toEqual(expect.arrayContaining(['POST /register', 'GET /authorize', 'POST /token']));
    const authorize = new URL(server.requests.find((r) => r.path.startsWith('/authorize'))!.path, server.url).searchParams;
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('client_id')).toBe('legacy-client');
    expect(form(server.requests.find((r) => r.path === '/token'))).toMatchObject({
      grant_type: 'authorization_code',
      resource: `${server.url}/api/mcp`,
    });
    expect(credentials).toMatchObject({ issuer: server.url, tokenEndpoint: `${server.url}/token`, token: { accessToken: 'legacy-at' } });
  });
});

describe('authenticate() with oauth.clientMetadataUrl', () => {
  async function asServer(cimdSupported: boolean) {
    const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
      const url = new URL(request.path, base);
      switch (url.pathname) {
        case '/mcp':
          return { status: 401, body: {}, headers: { 'www-authenticate': `Bearer resource_metadata="${base}/prm"` } };
        case '/prm':
          return { body: { resource: `${base}/mcp`, authorization_servers: [base] } };
        case '/.well-known/oauth-authorization-server':
          return {
            body: {
              issuer: base,
              authorization_endpoint: `${base}/authorize`,
              token_endpoint: `${base}/token`,
              registration_endpoint: `${base}/register`,
              code_challenge_methods_supported: ['S256'],
              client_id_metadata_document_supported: cimdSupported,
            },
          };
        case '/register':
          return { status: 201, body: { client_id: 'dcr-client' } };
        case '/authorize':
          return approve(url);
        case '/token':
          return { body: { access_token: 'at', token_type: 'Bearer' } };
        default:
          return undefined;
      }
    });
    servers.push(server);
    return server;
  }
  const entry = (base: string) => ({
    httpUrl: `${base}/mcp`,
    oauth: { redirectUri: 'http://localhost:0/oauth/callback', clientMetadataUrl: CIMD_URL },
  });

  it('uses the metadata document URL as client_id when the server supports it, without registering', async () => {
    const server = await asServer(true);
    const credentials = await authenticate('cimd', entry(server.url), { openBrowser: createRedirectFollowingOpener() });
    const authorize = new URL(server.requests.find((r) => r.path.startsWith('/authorize'))!.path, server.url).searchParams;
    expect(authorize.get('client_id')).toBe(CIMD_URL);
    expect(paths(server.requests)).not.toContain('POST /register');
    expect(form(server.requests.find((r) => r.path === '/token'))).toMatchObject({ client_id: CIMD_URL });
    expect(credentials.client).toMatchObject({ clientId: CIMD_URL, source: 'metadata-document' });
  });

  it('registers dynamically when the server does not advertise metadata documents', async () => {
    const server = await asServer(false);
    const credentials = await authenticate('cimd', entry(server.url), { openBrowser: createRedirectFollowingOpener() });
    expect(paths(server.requests)).toContain('POST /register');
    expect(credentials.client).toMatchObject({ clientId: 'dcr-client', source: 'dynamic-registration' });
  });
});
