import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { createRedirectFollowingOpener } from './redirect-following-opener.js';
import { startJsonRoutesServer, type RouteAnswer, type SeenRequest } from '@toolhost-internal/fixtures/oauth';

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

describe('authenticate() against a 2025-03-26 server with metadata at its origin and no protected resource metadata', () => {
  // MCP 2025-03-26: the MCP server's origin is the authorization server, so RFC 8414 metadata at
  // the root well-known URL must name the origin as its issuer (RFC 8414 §3.3), as the MCP
  // TypeScript SDK requires on this path too. The endpoints may live anywhere.
  async function legacyServer(issuer: (base: string) => string) {
    const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
      const url = new URL(request.path, base);
      switch (url.pathname) {
        case '/mcp':
          return { status: 401, body: {}, headers: { 'www-authenticate': 'Bearer' } };
        case '/.well-known/oauth-authorization-server':
        case '/.well-known/oauth-authorization-server/oauth': // RFC 8414's location for the issuer <origin>/oauth
          return {
            body: {
              issuer: issuer(base),
              authorization_endpoint: `${base}/oauth/authorize`,
              token_endpoint: `${base}/oauth/token`,
              registration_endpoint: `${base}/oauth/register`,
              response_types_supported: ['code'],
              code_challenge_methods_supported: ['S256'],
            },
          };
        case '/oauth/register':
          return { status: 201, body: { client_id: 'legacy-metadata-client' } };
        case '/oauth/authorize':
          return approve(url);
        case '/oauth/token':
          return { body: { access_token: 'legacy-metadata-at', token_type: 'Bearer' } };
        default:
          return undefined; // no protected resource metadata
      }
    });
    servers.push(server);
    return server;
  }
  const entry = (base: string, oauth: Record<string, unknown> = {}) => ({
    httpUrl: `${base}/mcp`,
    oauth: { redirectUri: 'http://localhost:0/oauth/callback', ...oauth },
  });

  it('uses metadata whose issuer is the server origin (with or without a trailing slash), with its endpoints', async () => {
    for (const issuer of [(base: string) => base, (base: string) => `${base}/`]) {
      const server = await legacyServer(issuer);
      const tokenStore = new InMemoryTokenStore();
      const credentials = await authenticate('legacy-md', entry(server.url), { tokenStore, openBrowser: createRedirectFollowingOpener() });
      expect(paths(server.requests)).toEqual(
        expect.arrayContaining([
          'GET /.well-known/oauth-protected-resource/mcp',
          'GET /.well-known/oauth-authorization-server',
          'POST /oauth/register',
          'GET /oauth/authorize',
          'POST /oauth/token',
        ]),
      );
      expect(paths(server.requests)).not.toContain('POST /register');
      expect(credentials).toMatchObject({
        issuer: issuer(server.url),
        tokenEndpoint: `${server.url}/oauth/token`,
        client: { clientId: 'legacy-metadata-client' },
        token: { accessToken: 'legacy-metadata-at' },
      });
    }
  });

  it('uses metadata at the origin that names an issuer with a path on the same origin (the server is its own authorization server)', async () => {
    const server = await legacyServer((base) => `${base}/oauth`);
    const credentials = await authenticate('legacy-md', entry(server.url), {
      tokenStore: new InMemoryTokenStore(),
      openBrowser: createRedirectFollowingOpener(),
    });
    expect(paths(server.requests)).toContain('GET /.well-known/oauth-authorization-server');
    expect(credentials).toMatchObject({
      issuer: `${server.url}/oauth`,
      tokenEndpoint: `${server.url}/oauth/token`,
      token: { accessToken: 'legacy-metadata-at' },
    });
  });

  it('refuses metadata at the origin that names an issuer on another origin before any request to its endpoints, and says what to do', async () => {
    const foreign = 'https://issuer.example.test/oauth';
    const server = await legacyServer(() => foreign);
    const tokenStore = new InMemoryTokenStore();
    const openBrowser = vi.fn();
    const error = (await authenticate('legacy-md', entry(server.url), { tokenStore, openBrowser }).catch((e: unknown) => e)) as OAuthError;
    expect(OAuthError.isInstance(error)).toBe(true);
    expect(error.code).toBe('ISSUER_MISMATCH');
    expect(error.serverName).toBe('legacy-md');
    expect(error.message).toContain(`MCP server 'legacy-md' publishes no protected resource metadata`);
    expect(error.message).toContain(`names the issuer ${JSON.stringify(foreign)}`);
    expect(error.message).toContain(`discovered for the issuer ${JSON.stringify(server.url)}`);
    expect(error.message).toContain('set oauth.issuer');
    expect(error.message).not.toContain('authorization_servers'); // there is no protected resource metadata to fix
    expect(paths(server.requests).filter((p) => p.includes('/oauth/') || p.endsWith('/register'))).toEqual([]);
    expect(openBrowser).not.toHaveBeenCalled();
    expect(await tokenStore.list()).toEqual([]);
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
