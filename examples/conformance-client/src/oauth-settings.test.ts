import { describe, expect, it } from 'vitest';
import { CONFORMANCE_CLIENT_METADATA_URL, oauthSettings } from './oauth-settings.js';

const input = (scenario: string, context?: Record<string, unknown>) => ({
  serverUrl: 'http://localhost:1/mcp',
  scenario,
  log: () => undefined,
  ...(context ? { context } : {}),
});

describe('oauthSettings', () => {
  it('uses the authorization code flow with the metadata document URL and pre-registered credentials by default', () => {
    expect(oauthSettings(input('auth/pre-registration', { client_id: 'c', client_secret: 's' }), 4000)).toEqual({
      enabled: true,
      redirectUri: 'http://localhost:4000/oauth/callback',
      clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL,
      clientId: 'c',
      clientSecret: 's',
    });
  });

  it('maps client-credentials scenarios to the client credentials grant with a secret or a private key', () => {
    expect(oauthSettings(input('auth/client-credentials-basic', { client_id: 'c', client_secret: 's' }), 1)).toMatchObject({
      grantType: 'client_credentials',
      clientSecret: 's',
    });
    expect(
      oauthSettings(input('auth/client-credentials-jwt', { client_id: 'c', private_key_pem: 'PEM', signing_algorithm: 'ES256' }), 1),
    ).toMatchObject({
      grantType: 'client_credentials',
      clientId: 'c',
      privateKey: 'PEM',
      signingAlgorithm: 'ES256',
    });
  });

  it('maps an IdP ID token in the context to enterprise-managed authorization', () => {
    const settings = oauthSettings(
      input('auth/cross-app-access-complete-flow', {
        client_id: 'c',
        client_secret: 's',
        idp_client_id: 'ic',
        idp_id_token: 'idt',
        idp_issuer: 'http://idp',
        idp_token_endpoint: 'http://idp/token',
      }),
      1,
    );
    expect(settings).toMatchObject({
      grantType: 'enterprise_managed',
      idp: { clientId: 'ic', idToken: 'idt', tokenUrl: 'http://idp/token', issuer: 'http://idp' },
    });
  });

  it('maps a workload JWT in the context to the jwt_bearer grant with that token as the assertion', () => {
    const settings = oauthSettings(
      input('auth/wif-jwt-bearer', { client_id: 'w', valid_jwt: 'a.b.c', wrong_audience_jwt: 'd.e.f', expired_jwt: 'g.h.i' }),
      1,
    );
    expect(settings).toMatchObject({ grantType: 'jwt_bearer', clientId: 'w', assertion: 'a.b.c' });
  });
});
