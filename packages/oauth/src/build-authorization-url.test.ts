import { describe, expect, it } from 'vitest';
import { assertPkceSupport, buildAuthorizationUrl } from './build-authorization-url.js';
import type { AuthorizationServerInfo } from './discover-authorization-server.js';
import { OAuthError } from './oauth-error.js';
import { createPkceParameters } from './pkce.js';

const server = (methods?: string[]): AuthorizationServerInfo => ({
  issuer: 'https://as.example',
  authorizationEndpoint: 'https://as.example/authorize',
  tokenEndpoint: 'https://as.example/token',
  codeChallengeMethodsSupported: methods,
  clientIdMetadataDocumentSupported: false,
});

describe('PKCE and the authorization URL', () => {
  it('creates an S256 pair whose challenge is the SHA-256 of the verifier', async () => {
    const pkce = await createPkceParameters();
    expect(pkce.codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(pkce.codeVerifier));
    expect(pkce.codeChallenge).toBe(Buffer.from(digest).toString('base64url'));
    expect((await createPkceParameters()).state).not.toBe(pkce.state);
  });

  it('keeps the endpoint query and adds every parameter, resource included', async () => {
    const pkce = await createPkceParameters();
    const url = new URL(
      buildAuthorizationUrl({
        authorizationEndpoint: 'https://as.example/authorize?tenant=t1',
        clientId: 'c1',
        redirectUri: 'http://localhost:7777/oauth/callback',
        pkce,
        scope: 'a b',
        resource: 'https://mcp.example/mcp',
        audiences: ['aud1'],
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      tenant: 't1',
      response_type: 'code',
      client_id: 'c1',
      redirect_uri: 'http://localhost:7777/oauth/callback',
      state: pkce.state,
      code_challenge: pkce.codeChallenge,
      code_challenge_method: 'S256',
      scope: 'a b',
      audience: 'aud1',
      resource: 'https://mcp.example/mcp',
    });
  });

  it('refuses a server without code_challenge_methods_supported unless allowed, and one without S256 always', () => {
    const refused = (() => {
      try {
        assertPkceSupport({ serverName: 's', authorizationServer: server() });
      } catch (e) {
        return e;
      }
    })();
    expect((refused as OAuthError).code).toBe('PKCE_UNSUPPORTED');
    expect(() => assertPkceSupport({ serverName: 's', authorizationServer: server(), allowMissingPkceSupport: true })).not.toThrow();
    expect(() => assertPkceSupport({ serverName: 's', authorizationServer: server(['plain']), allowMissingPkceSupport: true })).toThrow(
      OAuthError,
    );
    expect(() => assertPkceSupport({ serverName: 's', authorizationServer: server(['plain', 'S256']) })).not.toThrow();
  });
});
