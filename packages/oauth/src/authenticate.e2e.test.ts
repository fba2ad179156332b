import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { StoredTokenOAuthProvider } from './stored-token-provider.js';
import { launchChromiumOpener } from './testing/chromium-opener.js';
import { startOidcAuthorizationServer } from './testing/start-oidc-authorization-server.js';
import { startProtectedMcpServer } from './testing/protected-mcp-server.js';

// End to end: oidc-provider as the authorization server of a Streamable HTTP MCP server that
// checks bearer tokens, the login and consent pages driven in headless Chromium.
describe('authenticate() against oidc-provider with headless Chromium', () => {
  let as: Awaited<ReturnType<typeof startOidcAuthorizationServer>>;
  let mcp: Awaited<ReturnType<typeof startProtectedMcpServer>>;
  let browser: Awaited<ReturnType<typeof launchChromiumOpener>>;
  const registrations: string[] = [];

  beforeAll(async () => {
    as = await startOidcAuthorizationServer();
    as.provider.on('registration_create.success', (_ctx, client) => registrations.push(client.clientId));
    mcp = await startProtectedMcpServer({ authorizationServers: () => [as.issuer], verifyAccessToken: as.verifyAccessToken });
    browser = await launchChromiumOpener();
  });

  afterAll(async () => {
    await browser?.close();
    await mcp?.close();
    await as?.close();
  });

  const config = () => ({
    httpUrl: mcp.url,
    oauth: { redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true, scopes: ['mcp:tools', 'offline_access'] },
  });

  async function connect(provider: StoredTokenOAuthProvider): Promise<Client> {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider, fetch: provider.wrapFetch() });
    await client.connect(transport);
    return client;
  }

  it('reports AUTH_REQUIRED, authenticates with DCR + PKCE + resource, calls a tool, then refreshes', async () => {
    const tokenStore = new InMemoryTokenStore();
    const provider = new StoredTokenOAuthProvider({ serverName: 'e2e', config: config(), tokenStore });

    const refused = await connect(provider).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(OAuthError.isInstance(refused)).toBe(true);
    expect((refused as OAuthError).code).toBe('AUTH_REQUIRED');
    expect((refused as OAuthError).message).toContain('toolhost mcp auth e2e');
    expect(provider.lastChallenge?.resourceMetadata).toBe(`${new URL(mcp.url).origin}/.well-known/oauth-protected-resource/mcp`);

    const opened: string[] = [];
    const credentials = await authenticate('e2e', config(), {
      tokenStore,
      challenge: provider.lastChallenge,
      openBrowser: async (url) => {
        opened.push(url);
        await browser.openBrowser(url);
      },
    });
    expect(opened).toHaveLength(1);
    const authorizationUrl = new URL(opened[0]!);
    expect(authorizationUrl.origin).toBe(as.issuer);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(mcp.resource);
    expect(authorizationUrl.searchParams.get('scope')).toBe('mcp:tools offline_access');
    expect(browser.landedOn[1]).toBe('Authentication complete');
    expect(new URL(browser.landedOn[0]!).searchParams.get('iss')).toBe(as.issuer);
    expect(registrations).toEqual([credentials.client.clientId]);
    expect(credentials.client.source).toBe('dynamic-registration');
    expect(credentials.issuer).toBe(as.issuer);
    expect(credentials.resource).toBe(mcp.resource);
    expect(credentials.token.refreshToken).toBeTruthy();

    const client = await connect(provider);
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    expect(JSON.parse((result.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ clientId: credentials.client.clientId });
    expect(mcp.accepted.at(-1)?.audience).toBe(mcp.resource);
    await client.close();

    // 58 minutes later the 1-hour token is within the 5-minute window: the provider refreshes it.
    const later = new StoredTokenOAuthProvider({ serverName: 'e2e', config: config(), tokenStore, now: () => Date.now() + 58 * 60_000 });
    const refreshedClient = await connect(later);
    const stored = await tokenStore.get('e2e');
    expect(stored?.token.accessToken).not.toBe(credentials.token.accessToken);
    expect(stored?.token.refreshToken).toBeTruthy();
    await refreshedClient.callTool({ name: 'whoami', arguments: {} });
    const audienceOfRefreshed = await as.verifyAccessToken(stored!.token.accessToken);
    expect(audienceOfRefreshed?.audience).toBe(mcp.resource);
    await refreshedClient.close();
  });

  it('steps up on 403 insufficient_scope with the union of scopes, and stops after the retry limit', async () => {
    const tokenStore = new InMemoryTokenStore();
    const provider = new StoredTokenOAuthProvider({ serverName: 'e2e', config: config(), tokenStore, maxStepUpAttempts: 1 });
    await authenticate('e2e', config(), { tokenStore, openBrowser: browser.openBrowser });
    const client = await connect(provider);
    const refused = await client.callTool({ name: 'admin-op', arguments: {} }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((refused as OAuthError).code).toBe('AUTH_REQUIRED');
    expect((refused as OAuthError).requiredScope).toBe('mcp:tools mcp:admin');

    const opened: string[] = [];
    await authenticate('e2e', config(), {
      tokenStore,
      challenge: provider.lastChallenge,
      openBrowser: async (url) => {
        opened.push(url);
        await browser.openBrowser(url);
      },
    });
    expect(new URL(opened[0]!).searchParams.get('scope')).toBe('mcp:tools offline_access mcp:admin');
    const result = await client.callTool({ name: 'admin-op', arguments: {} });
    expect((result.content as Array<{ text: string }>)[0]!.text).toBe('admin ok');
    await client.close();

    // A server that keeps asking for a scope the user cannot get: the second step-up is refused.
    const stubborn = new StoredTokenOAuthProvider({ serverName: 'e2e', config: config(), tokenStore, maxStepUpAttempts: 1 });
    stubborn.lastChallenge = { error: 'insufficient_scope', scope: 'mcp:root' };
    expect(stubborn.authRequiredError().code).toBe('AUTH_REQUIRED');
    expect(stubborn.authRequiredError().code).toBe('STEP_UP_LIMIT');
  });
});
