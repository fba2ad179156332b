import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { startJsonRoutesServer, type RouteAnswer } from './testing/json-routes-server.js';

// Values authenticate() cannot use are refused with an error that names them, never used silently
// and never quoted when they may be secret. Against an MCP server and authorization server on loopback.
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A protected MCP server that is its own authorization server, supporting metadata documents and registration. */
async function startServer(token: Record<string, unknown> = { access_token: 'at', token_type: 'Bearer' }) {
  const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
    switch (new URL(request.path, base).pathname) {
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
            client_id_metadata_document_supported: true,
          },
        };
      case '/register':
        return { status: 201, body: { client_id: 'dcr-client' } };
      case '/token':
        return { body: token };
      default:
        return undefined;
    }
  });
  servers.push(server);
  return server;
}

describe('authenticate() refuses what it cannot use', () => {
  it.each([
    ['http://app.example/oauth/client.json', 'it is not an https URL'],
    ['https://app.example/oauth/client.json#', 'it has a fragment ("#")'],
    ['https://admin:hunter2@app.example/oauth/client.json', 'it has a user name or password'],
    ['https://app.example/oauth/../client.json', 'it has "." or ".." path segments'],
    ['https://app.example/', 'it has no path'],
  ])('a clientMetadataUrl option %s: INVALID_CONFIG naming it (%s), before any request, instead of registering', async (url, reason) => {
    const server = await startServer();
    const tokenStore = new InMemoryTokenStore();
    const openBrowser = vi.fn();
    const error = await authenticate(
      'cimd',
      { httpUrl: `${server.url}/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
      { clientMetadataUrl: url, tokenStore, openBrowser, timeoutMs: 30_000 },
    ).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(OAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'INVALID_CONFIG', serverName: 'cimd' });
    expect((error as Error).message).toContain(
      `The clientMetadataUrl option of the sign-in to MCP server 'cimd' is not a Client ID Metadata Document URL: ${reason}.`,
    );
    expect((error as Error).message).not.toContain('hunter2');
    expect(server.requests).toEqual([]);
    expect(openBrowser).not.toHaveBeenCalled();
  });

  it('an access token that cannot go in a header: the grant fails without quoting it, and nothing is stored', async () => {
    const server = await startServer({ access_token: 'sk-SECRET-TOKEN\r\nX-Injected: 1', token_type: 'Bearer' });
    const tokenStore = new InMemoryTokenStore();
    const error = await authenticate(
      'machine',
      {
        httpUrl: `${server.url}/mcp`,
        oauth: { grantType: 'client_credentials', clientId: 'machine-client', clientSecret: 'machine-secret' },
      },
      { tokenStore, allowPrivateNetwork: true },
    ).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(OAuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'TOKEN_EXCHANGE_FAILED', serverName: 'machine' });
    expect((error as Error).message).toContain(
      'the token endpoint answered an access token that is empty or has characters an access token cannot have',
    );
    expect((error as Error).message).not.toContain('sk-SECRET');
    expect(await tokenStore.list()).toEqual([]);
  });
});
