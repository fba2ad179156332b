import { afterEach, describe, expect, it } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { createRedirectFollowingOpener } from './redirect-following-opener.js';
import { startJsonRoutesServer, type RouteAnswer, type SeenRequest } from '@toolhost-internal/fixtures/oauth';

// A scripted authorization server that approves without a login page (as the conformance
// suite's does), driven through the non-interactive redirect-following opener.
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function scriptedServer(metadata: Record<string, unknown> = {}, challenge = 'Bearer scope="from:challenge"') {
  const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
    const url = new URL(request.path, base);
    switch (url.pathname) {
      case '/mcp':
        return { status: 401, body: {}, headers: { 'www-authenticate': challenge } };
      case '/.well-known/oauth-protected-resource/mcp':
        return { body: { resource: `${base}/mcp`, authorization_servers: [base], scopes_supported: ['from:prm'] } };
      case '/.well-known/oauth-authorization-server':
        return {
          body: {
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: `${base}/token`,
            registration_endpoint: `${base}/register`,
            code_challenge_methods_supported: ['S256'],
            response_types_supported: ['code'],
            ...metadata,
          },
        };
      case '/register':
        return { status: 201, body: { client_id: 'dcr-client', token_endpoint_auth_method: 'none' } };
      case '/authorize': {
        const redirect = new URL(url.searchParams.get('redirect_uri')!);
        redirect.searchParams.set('code', 'the-code');
        redirect.searchParams.set('state', url.searchParams.get('state')!);
        return { status: 302, headers: { location: redirect.href } };
      }
      case '/token':
        return { body: { access_token: 'at', token_type: 'Bearer', refresh_token: 'rt', expires_in: 3600 } };
      default:
        return undefined;
    }
  });
  servers.push(server);
  return server;
}

const form = (request: SeenRequest | undefined) => Object.fromEntries(new URLSearchParams(request?.body ?? ''));
const find = (requests: SeenRequest[], path: string) => requests.find((r) => r.path.split('?')[0] === path);

describe('authenticate() with a non-interactive authorization server', () => {
  it('registers dynamically, sends PKCE and resource everywhere, uses the challenge scope and stores the token', async () => {
    const server = await scriptedServer();
    const tokenStore = new InMemoryTokenStore();
    const credentials = await authenticate(
      's',
      { httpUrl: `${server.url}/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
      {
        tokenStore,
        openBrowser: createRedirectFollowingOpener(),
      },
    );
    const authorize = new URL(find(server.requests, '/authorize')!.path, server.url).searchParams;
    expect(authorize.get('scope')).toBe('from:challenge');
    expect(authorize.get('resource')).toBe(`${server.url}/mcp`);
    expect(authorize.get('client_id')).toBe('dcr-client');
    const registration = JSON.parse(find(server.requests, '/register')!.body) as Record<string, unknown>;
    expect(registration).toMatchObject({
      redirect_uris: [authorize.get('redirect_uri')],
      token_endpoint_auth_method: 'none',
      scope: 'from:challenge',
      application_type: 'native', // a loopback redirect: a desktop or CLI client (MCP 2026-07-28)
    });
    const token = form(find(server.requests, '/token'));
    expect(token).toMatchObject({
      grant_type: 'authorization_code',
      code: 'the-code',
      resource: `${server.url}/mcp`,
      client_id: 'dcr-client',
      redirect_uri: authorize.get('redirect_uri'),
    });
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token.code_verifier));
    expect(authorize.get('code_challenge')).toBe(Buffer.from(digest).toString('base64url'));
    expect(credentials).toMatchObject({
      serverName: 's',
      issuer: server.url,
      token: { accessToken: 'at', refreshToken: 'rt' },
      client: { source: 'dynamic-registration' },
    });
    expect(await tokenStore.get('s', server.url)).toEqual(credentials);
  });

  it('registers with the application_type the caller asks for', async () => {
    const server = await scriptedServer();
    await authenticate(
      's',
      { httpUrl: `${server.url}/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
      { openBrowser: createRedirectFollowingOpener(), applicationType: 'web' },
    );
    expect(JSON.parse(find(server.requests, '/register')!.body)).toMatchObject({ application_type: 'web' });
  });

  it('uses a configured client with client_secret_post when only that is supported, and never registers', async () => {
    const server = await scriptedServer({ token_endpoint_auth_methods_supported: ['client_secret_post'] });
    await authenticate(
      's',
      {
        httpUrl: `${server.url}/mcp`,
        oauth: { clientId: 'pre', clientSecret: 'sec', scopes: ['cfg'], redirectUri: 'http://localhost:0/oauth/callback' },
      },
      {
        openBrowser: createRedirectFollowingOpener(),
      },
    );
    expect(find(server.requests, '/register')).toBeUndefined();
    expect(new URL(find(server.requests, '/authorize')!.path, server.url).searchParams.get('scope')).toBe('cfg');
    expect(form(find(server.requests, '/token'))).toMatchObject({ client_id: 'pre', client_secret: 'sec' });
    expect(find(server.requests, '/token')!.headers.authorization).toBeUndefined();
  });

  it('uses client_secret_basic by default for a configured confidential client', async () => {
    const server = await scriptedServer();
    await authenticate(
      's',
      { httpUrl: `${server.url}/mcp`, oauth: { clientId: 'pre', clientSecret: 'sec', redirectUri: 'http://localhost:0/oauth/callback' } },
      {
        openBrowser: createRedirectFollowingOpener(),
      },
    );
    expect(find(server.requests, '/token')!.headers.authorization).toBe(`Basic ${Buffer.from('pre:sec').toString('base64')}`);
    expect(form(find(server.requests, '/token')).client_secret).toBeUndefined();
  });

  it('prefers a Client ID Metadata Document over registration when the server supports it', async () => {
    const server = await scriptedServer({ client_id_metadata_document_supported: true });
    const credentials = await authenticate(
      's',
      { httpUrl: `${server.url}/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
      {
        openBrowser: createRedirectFollowingOpener(),
        clientMetadataUrl: 'https://host.example/oauth/client.json',
      },
    );
    expect(find(server.requests, '/register')).toBeUndefined();
    expect(credentials.client).toMatchObject({ clientId: 'https://host.example/oauth/client.json', source: 'metadata-document' });
  });

  it('falls back to scopes_supported when neither the entry nor the challenge names scopes', async () => {
    const server = await scriptedServer({}, 'Bearer');
    await authenticate(
      's',
      { httpUrl: `${server.url}/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
      { openBrowser: createRedirectFollowingOpener() },
    );
    expect(new URL(find(server.requests, '/authorize')!.path, server.url).searchParams.get('scope')).toBe('from:prm');
  });

  it('refuses when there is no way to obtain a client id', async () => {
    const server = await scriptedServer({ registration_endpoint: undefined });
    await expect(
      authenticate(
        's',
        { httpUrl: `${server.url}/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
        { openBrowser: createRedirectFollowingOpener() },
      ),
    ).rejects.toMatchObject({ code: 'NO_CLIENT_REGISTRATION' });
  });
});
