import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createAuthProvider } from './create-auth-provider.js';
import type { GoogleAuthClientLike } from './google-auth-client.js';
import { GoogleCredentialProvider } from './google-credential-provider.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { generateIdTokenUrl, ServiceAccountImpersonationProvider } from './service-account-impersonation-provider.js';
import { StoredTokenOAuthProvider } from './stored-token-provider.js';

// Offline: real Google endpoints cannot be reached here, so these tests cover configuration
// errors, the header and token shapes (through an injected google-auth-library client) and the
// real library's failure without credentials.
const NOW = 1_700_000_000_000;
const scopes = ['https://www.googleapis.com/auth/cloud-platform'];

function fakeClient(overrides: Partial<GoogleAuthClientLike> = {}): GoogleAuthClientLike {
  return {
    getAccessToken: vi.fn(async () => ({ token: 'ya29.token' })),
    credentials: { expiry_date: NOW + 3_600_000 },
    quotaProjectId: 'quota-project',
    request: vi.fn(async () => ({ data: {} })) as GoogleAuthClientLike['request'],
    ...overrides,
  };
}

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as OAuthError;
  }
  return undefined;
};

describe('GoogleCredentialProvider', () => {
  it('requires a Google host and scopes', () => {
    expect(
      errorOf(() => new GoogleCredentialProvider({ serverName: 'g', config: { httpUrl: 'https://evil.example/mcp', oauth: { scopes } } }))
        ?.code,
    ).toBe('INVALID_CONFIG');
    expect(
      errorOf(() => new GoogleCredentialProvider({ serverName: 'g', config: { httpUrl: 'https://googleapis.com/mcp', oauth: { scopes } } }))
        ?.code,
    ).toBe('INVALID_CONFIG');
    expect(
      errorOf(() => new GoogleCredentialProvider({ serverName: 'g', config: { httpUrl: 'https://x.googleapis.com/mcp' } }))?.message,
    ).toContain('oauth.scopes');
    for (const url of [
      'https://x.googleapis.com/mcp',
      'https://luci.app/mcp',
      'https://sub.luci.app/mcp',
      'https://my-gcp-service.run.app/mcp',
    ]) {
      expect(
        errorOf(() => new GoogleCredentialProvider({ serverName: 'g', config: { httpUrl: url, oauth: { scopes } } })),
        url,
      ).toBeUndefined();
    }
  });

  it('returns a Bearer token, caches it until 5 minutes before expiry, and adds X-Goog-User-Project', async () => {
    const client = fakeClient();
    let now = NOW;
    const provider = new GoogleCredentialProvider({
      serverName: 'g',
      config: { httpUrl: 'https://x.googleapis.com/mcp', oauth: { scopes } },
      auth: { getClient: async () => client },
      now: () => now,
    });
    expect(await provider.tokens()).toEqual({ access_token: 'ya29.token', token_type: 'Bearer', expires_in: 3600 });
    expect(provider.getRequestHeaders()).toEqual({ 'X-Goog-User-Project': 'quota-project' });
    await provider.tokens();
    expect(client.getAccessToken).toHaveBeenCalledTimes(1);
    now = NOW + 3_300_000;
    await provider.tokens();
    expect(client.getAccessToken).toHaveBeenCalledTimes(2);
  });

  it('lets a configured X-Goog-User-Project header win, whatever its case', async () => {
    const provider = new GoogleCredentialProvider({
      serverName: 'g',
      config: { httpUrl: 'https://x.googleapis.com/mcp', oauth: { scopes }, headers: { 'x-goog-user-project': 'mine' } },
      auth: { getClient: async () => fakeClient() },
    });
    await provider.tokens();
    expect(provider.getRequestHeaders()).toEqual({});
  });

  it('fails with GOOGLE_AUTH_FAILED through the real google-auth-library when credentials are unusable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'toolhost-adc-'));
    const previous = process.env.GOOGLE_APPLICATION_CREDENTIALS;
    process.env.GOOGLE_APPLICATION_CREDENTIALS = join(dir, 'adc.json');
    await writeFile(process.env.GOOGLE_APPLICATION_CREDENTIALS, '{"type":"nonsense"}');
    try {
      const provider = new GoogleCredentialProvider({
        serverName: 'g',
        config: { httpUrl: 'https://x.googleapis.com/mcp', oauth: { scopes } },
      });
      const error = await provider.tokens().catch((e: unknown) => e);
      expect(OAuthError.isInstance(error) && error.code).toBe('GOOGLE_AUTH_FAILED');
      expect((error as Error).message).toContain('gcloud auth application-default login');
    } finally {
      if (previous === undefined) delete process.env.GOOGLE_APPLICATION_CREDENTIALS;
      else process.env.GOOGLE_APPLICATION_CREDENTIALS = previous;
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('ServiceAccountImpersonationProvider', () => {
  const config = {
    httpUrl: 'https://iap.example/mcp',
    targetAudience: 'client-id.apps.googleusercontent.com',
    targetServiceAccount: 'sa@p.iam.gserviceaccount.com',
  };

  it('requires url, targetAudience and targetServiceAccount', () => {
    const error = errorOf(
      () => new ServiceAccountImpersonationProvider({ serverName: 'sa', config: { httpUrl: 'https://iap.example/mcp' } }),
    );
    expect(error?.code).toBe('INVALID_CONFIG');
    expect(error?.message).toContain('targetAudience, targetServiceAccount');
  });

  it('asks generateIdToken for the audience and sends the ID token as Bearer until 5 minutes before exp', async () => {
    const exp = Math.floor(NOW / 1000) + 3600;
    const idToken = `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.s`;
    const request = vi.fn(async () => ({ data: { token: idToken } }));
    const provider = new ServiceAccountImpersonationProvider({
      serverName: 'sa',
      config,
      auth: { getClient: async () => fakeClient({ request: request as GoogleAuthClientLike['request'] }) },
      now: () => NOW,
    });
    expect(await provider.tokens()).toEqual({ access_token: idToken, token_type: 'Bearer', expires_in: 3600 });
    await provider.tokens();
    expect(request).toHaveBeenCalledTimes(1);
    expect(request).toHaveBeenCalledWith({
      url: 'https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/sa%40p.iam.gserviceaccount.com:generateIdToken',
      method: 'POST',
      data: { audience: config.targetAudience, includeEmail: true },
    });
    expect(generateIdTokenUrl('a@b')).toContain('a%40b:generateIdToken');
  });
});

describe('createAuthProvider', () => {
  it('picks the provider from authProviderType', () => {
    const tokenStore = new InMemoryTokenStore();
    expect(createAuthProvider({ serverName: 'a', config: { httpUrl: 'https://x.example/mcp' }, tokenStore })).toBeInstanceOf(
      StoredTokenOAuthProvider,
    );
    expect(
      createAuthProvider({
        serverName: 'g',
        config: { httpUrl: 'https://x.googleapis.com/mcp', authProviderType: 'google_credentials', oauth: { scopes } },
        tokenStore,
      }),
    ).toBeInstanceOf(GoogleCredentialProvider);
    expect(
      errorOf(() =>
        createAuthProvider({
          serverName: 's',
          config: { httpUrl: 'https://x.example/mcp', authProviderType: 'service_account_impersonation' },
          tokenStore,
        }),
      )?.code,
    ).toBe('INVALID_CONFIG');
  });
});
