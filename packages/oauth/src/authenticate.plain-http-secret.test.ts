import { afterEach, describe, expect, it } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { createRedirectFollowingOpener } from './redirect-following-opener.js';
import { startJsonRoutesServer, type RouteAnswer } from './testing/json-routes-server.js';

// A private MCP server (allowPrivateNetwork) whose authorization server names a plain-http token
// endpoint off loopback: the client secret must never be sent there in clear text.
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function startServer(tokenEndpoint: (base: string) => string) {
  const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
    const url = new URL(request.path, base);
    switch (url.pathname) {
      case '/mcp':
        return { status: 401, body: {}, headers: { 'www-authenticate': 'Bearer' } };
      case '/.well-known/oauth-protected-resource/mcp':
        return { body: { resource: `${base}/mcp`, authorization_servers: [base] } };
      case '/.well-known/oauth-authorization-server':
        return {
          body: {
            issuer: base,
            authorization_endpoint: `${base}/authorize`,
            token_endpoint: tokenEndpoint(base),
            registration_endpoint: `${base}/register`,
            code_challenge_methods_supported: ['S256'],
            response_types_supported: ['code'],
          },
        };
      case '/register':
        return {
          status: 201,
          body: { client_id: 'confidential', client_secret: 's3cret', token_endpoint_auth_method: 'client_secret_post' },
        };
      case '/authorize': {
        const redirect = new URL(url.searchParams.get('redirect_uri')!);
        redirect.searchParams.set('code', 'the-code');
        redirect.searchParams.set('state', url.searchParams.get('state')!);
        return { status: 302, headers: { location: redirect.href } };
      }
      case '/token':
        return { body: { access_token: 'at', token_type: 'Bearer', expires_in: 3600 } };
      default:
        return undefined;
    }
  });
  servers.push(server);
  return server;
}

const run = (url: string) =>
  authenticate(
    'private',
    { httpUrl: url, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
    { tokenStore: new InMemoryTokenStore(), openBrowser: createRedirectFollowingOpener(), allowPrivateNetwork: true, timeoutMs: 30_000 },
  );

describe('authenticate() with a confidential client and a plain-http token endpoint', () => {
  it('refuses to send the client secret over http to a host that is not loopback, naming the server and the URL', async () => {
    // 192.0.2.1 (TEST-NET-1) is never contacted: the refusal comes first.
    const server = await startServer(() => 'http://192.0.2.1:9/token');
    const error = await run(`${server.url}/mcp`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(OAuthError.isInstance(error)).toBe(true);
    expect((error as OAuthError).code).toBe('UNSAFE_URL');
    expect((error as OAuthError).url).toBe('http://192.0.2.1:9/token');
    expect((error as OAuthError).message).toContain("MCP server 'private'");
    expect((error as OAuthError).message).toContain('http://192.0.2.1:9/token');
  });

  it('still sends it over http to a loopback token endpoint (local development)', async () => {
    const server = await startServer((base) => `${base}/token`);
    const credentials = await run(`${server.url}/mcp`);
    expect(credentials.token.accessToken).toBe('at');
    expect(server.requests.find((r) => r.path === '/token')?.body).toContain('client_secret=s3cret');
  });
});
