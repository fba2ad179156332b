import { afterEach, describe, expect, it } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { createRedirectFollowingOpener } from './redirect-following-opener.js';
import { startJsonRoutesServer, type RouteAnswer } from './testing/json-routes-server.js';

// A hostile authorization server whose error answers carry terminal escape sequences, a BiDi
// override and a forged log line: the OAuthError message must show them escaped, never raw.
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const HOSTILE = 'nope\u001b[2J\u001b]0;pwned\u0007\u202e\n[INFO] token stored\r';
const ESCAPED = 'nope\\u001b[2J\\u001b]0;pwned\\u0007\\u202e\\u000a[INFO] token stored\\u000d';
// eslint-disable-next-line no-control-regex -- raw control characters are what must not appear
const RAW = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/;

async function hostileServer(answers: { register?: RouteAnswer; token?: RouteAnswer }) {
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
            token_endpoint: `${base}/token`,
            registration_endpoint: `${base}/register`,
            code_challenge_methods_supported: ['S256'],
            response_types_supported: ['code'],
          },
        };
      case '/register':
        return answers.register ?? { status: 201, body: { client_id: 'dcr-client', token_endpoint_auth_method: 'none' } };
      case '/authorize': {
        const redirect = new URL(url.searchParams.get('redirect_uri')!);
        redirect.searchParams.set('code', 'the-code');
        redirect.searchParams.set('state', url.searchParams.get('state')!);
        return { status: 302, headers: { location: redirect.href } };
      }
      case '/token':
        return answers.token;
      default:
        return undefined;
    }
  });
  servers.push(server);
  return server;
}

async function failure(answers: { register?: RouteAnswer; token?: RouteAnswer }): Promise<OAuthError> {
  const server = await hostileServer(answers);
  const error = await authenticate(
    'evil',
    { httpUrl: `${server.url}/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
    { tokenStore: new InMemoryTokenStore(), openBrowser: createRedirectFollowingOpener(), allowPrivateNetwork: true, timeoutMs: 30_000 },
  ).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(OAuthError.isInstance(error)).toBe(true);
  return error as OAuthError;
}

describe('authenticate() against an authorization server that answers errors with control characters', () => {
  it('escapes the token endpoint error and error_description in the message', async () => {
    const error = await failure({ token: { status: 400, body: { error: `invalid_grant\u001b[31m`, error_description: HOSTILE } } });
    expect(error.code).toBe('TOKEN_EXCHANGE_FAILED');
    expect(error.message).not.toMatch(RAW);
    expect(error.message).toContain(`'evil': invalid_grant\\u001b[31m - ${ESCAPED}.`);
  });

  it('escapes the registration endpoint error_description in the message', async () => {
    const error = await failure({ register: { status: 400, body: { error: 'invalid_client_metadata', error_description: HOSTILE } } });
    expect(error.code).toBe('REGISTRATION_FAILED');
    expect(error.message).not.toMatch(RAW);
    expect(error.message).toContain(`failed: invalid_client_metadata - ${ESCAPED}.`);
  });
});
