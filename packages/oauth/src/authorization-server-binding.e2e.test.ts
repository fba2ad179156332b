import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { registerClient } from './register-client.js';
import { StoredTokenOAuthProvider, type StoredTokenOAuthProviderOptions } from './stored-token-provider.js';
import { launchChromiumOpener } from './testing/chromium-opener.js';
import { startOidcAuthorizationServer } from './testing/start-oidc-authorization-server.js';
import { startProtectedMcpServer } from './testing/protected-mcp-server.js';
import type { McpServerConfig } from '@toolhost/config';
import { createUrlGuard } from './url-guard.js';

// MCP 2026-07-28 client rules against real servers on loopback: two oidc-provider authorization
// servers, a Streamable HTTP MCP server whose protected-resource metadata can switch from one to
// the other (and then accepts only the new one's tokens), and headless Chromium for sign-ins.
describe('authorization-server binding against oidc-provider', () => {
  type AuthorizationServer = Awaited<ReturnType<typeof startOidcAuthorizationServer>>;
  let as1: AuthorizationServer;
  let as2: AuthorizationServer;
  let current: AuthorizationServer;
  let listed: () => string[];
  let mcp: Awaited<ReturnType<typeof startProtectedMcpServer>>;
  let browser: Awaited<ReturnType<typeof launchChromiumOpener>>;
  const registrations = new Map<string, string[]>();
  const serviceClient = {
    client_id: 'svc',
    client_secret: 'svc-secret',
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    scope: 'mcp:tools',
  };

  beforeAll(async () => {
    as1 = await startOidcAuthorizationServer({ clients: [serviceClient] });
    as2 = await startOidcAuthorizationServer({ clients: [serviceClient] });
    for (const as of [as1, as2]) {
      registrations.set(as.issuer, []);
      as.provider.on('registration_create.success', (_ctx, client) => registrations.get(as.issuer)!.push(client.clientId));
    }
    mcp = await startProtectedMcpServer({
      authorizationServers: () => listed(),
      verifyAccessToken: (token) => current.verifyAccessToken(token),
    });
    browser = await launchChromiumOpener();
  });

  afterAll(async () => {
    await browser?.close();
    await mcp?.close();
    await as1?.close();
    await as2?.close();
  });

  beforeEach(() => {
    current = as1;
    listed = () => [current.issuer];
    for (const list of registrations.values()) list.length = 0;
  });

  const userConfig = (): McpServerConfig => ({
    httpUrl: mcp.url,
    oauth: { redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true, scopes: ['mcp:tools', 'offline_access'] },
  });

  async function connect(provider: StoredTokenOAuthProvider): Promise<Client> {
    const client = new Client({ name: 'binding-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider, fetch: provider.wrapFetch() }));
    return client;
  }

  async function whoami(client: Client): Promise<{ clientId: string; scope: string }> {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { clientId: string; scope: string };
  }

  function provider(tokenStore: InMemoryTokenStore, config: McpServerConfig, extra: Partial<StoredTokenOAuthProviderOptions> = {}) {
    return new StoredTokenOAuthProvider({ serverName: 'moving', config, tokenStore, ...extra });
  }

  describe('dynamic client registration (application_type)', () => {
    async function registrationEndpoint(): Promise<string> {
      const metadata = (await (await fetch(`${as1.issuer}/.well-known/openid-configuration`)).json()) as { registration_endpoint: string };
      return metadata.registration_endpoint;
    }
    const common = () => ({
      serverName: 'reg',
      clientName: 'toolhost',
      guard: createUrlGuard({ serverName: 'reg', mcpServerUrl: as1.issuer, allowPrivateNetwork: true }),
      fetch: (input: string | URL, init?: RequestInit) => globalThis.fetch(input, init),
    });

    it('registers a loopback-redirect client as native, and as the caller says when overridden', async () => {
      const registrationUrl = await registrationEndpoint();
      const native = await registerClient({
        ...common(),
        registrationEndpoint: registrationUrl,
        redirectUri: 'http://localhost:7777/oauth/callback',
      });
      expect((await as1.provider.Client.find(native.clientId))?.applicationType).toBe('native');
      const web = await registerClient({
        ...common(),
        registrationEndpoint: registrationUrl,
        redirectUri: 'http://localhost:7777/oauth/callback',
        applicationType: 'web',
      });
      expect((await as1.provider.Client.find(web.clientId))?.applicationType).toBe('web');
    });

    it('says which application_type and redirect URI were refused when the server rejects them', async () => {
      const error = await registerClient({
        ...common(),
        registrationEndpoint: await registrationEndpoint(),
        redirectUri: 'https://localhost:7777/oauth/callback', // a native client may not claim https on localhost
        applicationType: 'native',
      }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'REGISTRATION_FAILED', oauthErrorCode: 'invalid_redirect_uri' });
      expect((error as OAuthError).message).toContain('application_type "native"');
      expect((error as OAuthError).message).toContain('https://localhost:7777/oauth/callback');
    });
  });

  it('refuses authorization-server metadata whose issuer is not the one the resource names, before registering or opening anything', async () => {
    // The resource lists the authorization server as "localhost", its metadata says "127.0.0.1".
    listed = () => [as1.issuer.replace('127.0.0.1', 'localhost')];
    const tokenStore = new InMemoryTokenStore();
    const openBrowser = vi.fn();
    const error = (await authenticate('moving', userConfig(), { tokenStore, openBrowser }).catch((e: unknown) => e)) as OAuthError;
    expect(OAuthError.isInstance(error)).toBe(true);
    expect(error.code).toBe('ISSUER_MISMATCH');
    expect(error.message).toContain(`MCP server 'moving'`);
    expect(error.message).toContain(JSON.stringify(as1.issuer));
    expect(error.message).toContain(JSON.stringify(as1.issuer.replace('127.0.0.1', 'localhost')));
    expect(openBrowser).not.toHaveBeenCalled();
    expect(registrations.get(as1.issuer)).toEqual([]);
    expect(await tokenStore.list()).toEqual([]);
  });

  it('migrates to the new authorization server on a 401, registering again and signing in through the browser hook', async () => {
    const tokenStore = new InMemoryTokenStore();
    const before = await authenticate('moving', userConfig(), { tokenStore, openBrowser: browser.openBrowser });
    expect(before.issuer).toBe(as1.issuer);
    expect((await as1.provider.Client.find(before.client.clientId))?.applicationType).toBe('native');
    const opened: string[] = [];
    const client = await connect(
      provider(tokenStore, userConfig(), {
        openBrowser: async (url) => {
          opened.push(url);
          await browser.openBrowser(url);
        },
      }),
    );
    expect((await whoami(client)).clientId).toBe(before.client.clientId);

    current = as2; // the server moves: its metadata names as2, as1's tokens are refused
    const after = await whoami(client); // 401, migration, then the same request again
    const stored = await tokenStore.list();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ issuer: as2.issuer, client: { source: 'dynamic-registration' } });
    expect(after.clientId).toBe(stored[0]!.client.clientId);
    expect(registrations.get(as2.issuer)).toEqual([stored[0]!.client.clientId]);
    expect(stored[0]!.client.clientId).not.toBe(before.client.clientId);
    expect(opened).toHaveLength(1);
    expect(new URL(opened[0]!).origin).toBe(as2.issuer);
    expect(new URL(opened[0]!).searchParams.get('client_id')).toBe(stored[0]!.client.clientId);
    await client.close();
  });

  it('without the browser hook, drops the old credentials and reports AUTH_REQUIRED naming both authorization servers', async () => {
    const tokenStore = new InMemoryTokenStore();
    const before = await authenticate('moving', userConfig(), { tokenStore, openBrowser: browser.openBrowser });
    const noHook = provider(tokenStore, userConfig());
    const client = await connect(noHook);
    current = as2;
    const refused = (await whoami(client).catch((e: unknown) => e)) as OAuthError;
    expect(OAuthError.isInstance(refused)).toBe(true);
    expect(refused.code).toBe('AUTH_REQUIRED');
    expect(refused.message).toContain(JSON.stringify(as1.issuer));
    expect(refused.message).toContain(JSON.stringify(as2.issuer));
    expect(refused.message).toContain('toolhost mcp auth moving');
    expect(await tokenStore.list()).toEqual([]);
    expect(registrations.get(as2.issuer)).toEqual([]);

    // The user signs in: a new registration with as2, and the same client works again.
    const after = await authenticate('moving', userConfig(), {
      tokenStore,
      challenge: noHook.lastChallenge,
      openBrowser: browser.openBrowser,
    });
    expect(after.issuer).toBe(as2.issuer);
    expect(registrations.get(as2.issuer)).toEqual([after.client.clientId]);
    expect(after.client.clientId).not.toBe(before.client.clientId);
    expect((await whoami(client)).clientId).toBe(after.client.clientId);
    await client.close();
  });

  it('does not migrate when the 401 comes from the same authorization server, and drops credentials it rejects on refresh', async () => {
    const tokenStore = new InMemoryTokenStore();
    const stored = await authenticate('moving', userConfig(), { tokenStore, openBrowser: browser.openBrowser });
    await tokenStore.set({ ...stored, token: { ...stored.token, accessToken: 'not-a-token' } });
    const refused = (await connect(provider(tokenStore, userConfig(), { openBrowser: browser.openBrowser })).catch(
      (e: unknown) => e,
    )) as OAuthError;
    expect(refused.code).toBe('AUTH_REQUIRED');
    expect(refused.message).toContain('rejected the stored OAuth token');
    expect((await tokenStore.get('moving'))?.issuer).toBe(as1.issuer);
    expect(registrations.get(as1.issuer)).toEqual([stored.client.clientId]);

    // oidc-provider answers invalid_grant to an unknown refresh token: the credentials go.
    await tokenStore.set({ ...stored, token: { ...stored.token, refreshToken: 'revoked', expiresAt: Date.now() + 60_000 } });
    const failed = await provider(tokenStore, userConfig())
      .tokens()
      .catch((e: unknown) => e);
    expect(failed).toMatchObject({ code: 'REFRESH_FAILED', oauthErrorCode: 'invalid_grant' });
    expect(await tokenStore.list()).toEqual([]);
  });

  describe('a pre-registered client_credentials client', () => {
    const machineConfig = (issuer?: string): McpServerConfig => ({
      httpUrl: mcp.url,
      oauth: {
        grantType: 'client_credentials',
        clientId: 'svc',
        clientSecret: 'svc-secret',
        allowPrivateNetwork: true,
        scopes: ['mcp:tools'],
        ...(issuer ? { issuer } : {}),
      },
    });

    it('is not used with the new authorization server unless oauth.issuer names it (INVALID_CONFIG)', async () => {
      const tokenStore = new InMemoryTokenStore();
      const machine = provider(tokenStore, machineConfig());
      const client = await connect(machine);
      expect((await whoami(client)).clientId).toBe('svc');
      expect((await tokenStore.get('moving'))?.issuer).toBe(as1.issuer);

      current = as2;
      const refused = (await whoami(client).catch((e: unknown) => e)) as OAuthError;
      expect(refused.code).toBe('INVALID_CONFIG');
      expect(refused.message).toContain(JSON.stringify(as1.issuer));
      expect(refused.message).toContain(JSON.stringify(as2.issuer));
      expect(refused.message).toContain('oauth.issuer');
      expect(await tokenStore.list()).toEqual([]);
      // Not renewed behind the user's back with the same provider either.
      await expect(whoami(client)).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
      await client.close();

      // The user confirms the client is registered with as2 too.
      const confirmed = await connect(provider(tokenStore, machineConfig(as2.issuer)));
      expect((await whoami(confirmed)).clientId).toBe('svc');
      expect((await tokenStore.get('moving'))?.issuer).toBe(as2.issuer);
      await confirmed.close();
    });

    it('moves by itself, without a browser, when oauth.issuer names the new authorization server', async () => {
      const tokenStore = new InMemoryTokenStore();
      const client = await connect(provider(tokenStore, machineConfig(as2.issuer)));
      expect((await tokenStore.get('moving'))?.issuer).toBe(as1.issuer);
      current = as2;
      expect((await whoami(client)).clientId).toBe('svc');
      const stored = await tokenStore.list();
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ issuer: as2.issuer, grantType: 'client_credentials' });
      expect(mcp.accepted.at(-1)?.audience).toBe(mcp.resource);
      await client.close();
    });
  });
});
