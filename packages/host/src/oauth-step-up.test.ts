// OAuth step-up end to end: a protected MCP server whose `admin-op` tool needs an extra scope
// (403 insufficient_scope), an authorization server on loopback that issues tokens for the scopes
// requested (dynamic registration, PKCE S256 checked, resource indicator), and McpToolHost.
import { createHash } from 'node:crypto';
import { createRedirectFollowingOpener, InMemoryTokenStore } from '@toolhost/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import {
  authorizationServerMetadata,
  type RouteAnswer,
  startJsonRoutesServer,
  startProtectedMcpServer,
} from '@toolhost-internal/fixtures/oauth';
import type { HostSettings } from './resolve-servers.js';
import { McpToolHost } from './mcp-tool-host.js';

interface OAuthServers {
  readonly mcpUrl: string;
  /** The `scope` of every authorization request, in order. */
  readonly requestedScopes: string[];
  /** When false, the authorization server never grants `mcp:admin` (the retry limit must hold). */
  grantAdmin: boolean;
  close(): Promise<void>;
}

async function startOAuthServers(): Promise<OAuthServers> {
  const issued = new Map<string, string>();
  const codes = new Map<string, { challenge: string; resource: string; scope: string }>();
  const state = { grantAdmin: true, resource: '' };
  const requestedScopes: string[] = [];
  const as = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
    const url = new URL(request.path, base);
    switch (url.pathname) {
      case '/.well-known/oauth-authorization-server':
        return { body: authorizationServerMetadata(base, { grant_types_supported: ['authorization_code', 'refresh_token'] }) };
      case '/register':
        return { status: 201, body: { client_id: 'host-client', token_endpoint_auth_method: 'none' } };
      case '/authorize': {
        const scope = url.searchParams.get('scope') ?? '';
        requestedScopes.push(scope);
        const granted = scope
          .split(' ')
          .filter((s) => s && (state.grantAdmin || s !== 'mcp:admin'))
          .join(' ');
        const code = `code-${codes.size + 1}`;
        codes.set(code, {
          challenge: url.searchParams.get('code_challenge') ?? '',
          resource: url.searchParams.get('resource') ?? '',
          scope: granted,
        });
        const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
        return { status: 302, headers: { location: redirect.href } };
      }
      case '/token': {
        const form = new URLSearchParams(request.body);
        const grant = codes.get(form.get('code') ?? '');
        const verifier = createHash('sha256')
          .update(form.get('code_verifier') ?? '')
          .digest('base64url');
        if (!grant || grant.challenge !== verifier || form.get('resource') !== state.resource || grant.resource !== state.resource) {
          return { status: 400, body: { error: 'invalid_grant' } };
        }
        const token = `at-${issued.size + 1}`;
        issued.set(token, grant.scope);
        return { body: { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: grant.scope } };
      }
      default:
        return undefined;
    }
  });
  const mcp = await startProtectedMcpServer({
    authorizationServers: () => [as.url],
    verifyAccessToken: async (token) => {
      const scope = issued.get(token);
      return scope === undefined ? undefined : { audience: state.resource, scope, clientId: 'host-client' };
    },
  });
  state.resource = mcp.resource;
  return {
    mcpUrl: mcp.url,
    requestedScopes,
    get grantAdmin() {
      return state.grantAdmin;
    },
    set grantAdmin(value: boolean) {
      state.grantAdmin = value;
    },
    close: async () => {
      await mcp.close();
      await as.close();
    },
  };
}

function settingsFor(url: string, oauth: Record<string, unknown> = {}): HostSettings {
  return {
    mcpServers: {
      secure: {
        httpUrl: url,
        trust: true,
        oauth: { redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true, ...oauth },
      },
    },
  };
}

const scopesOf = (scope: string | undefined) => (scope ?? '').split(' ').sort();

describe('OAuth step-up (403 insufficient_scope) through McpToolHost', () => {
  let servers: OAuthServers;
  beforeAll(async () => {
    servers = await startOAuthServers();
  });
  afterAll(async () => {
    await servers.close();
  });

  it('re-authorizes with the held plus the challenged scopes and retries the call once', async () => {
    const tokens = new InMemoryTokenStore();
    // A host without ui.openBrowser (and no oauth.enabled) must not start the flow during a call.
    const quiet = await McpToolHost.create({ settings: settingsFor(servers.mcpUrl), stores: { tokens } });
    const host = await McpToolHost.create({
      settings: settingsFor(servers.mcpUrl),
      stores: { tokens },
      ui: { openBrowser: createRedirectFollowingOpener() },
    });
    const authUrls: string[] = [];
    host.on('sign-in-start', ({ url }) => authUrls.push(url));
    quiet.on('sign-in-start', ({ url }) => authUrls.push(url));
    try {
      await host.discover();
      await host.servers.authenticate({ serverName: 'secure' });
      expect(servers.requestedScopes).toEqual(['mcp:tools']);
      expect((await host.callTool({ name: 'whoami' })).isError).toBe(false);

      await quiet.discover();
      expect(quiet.servers.status().servers[0]?.status).toBe('CONNECTED');
      const refused = await quiet.callTool({ name: 'admin-op' });
      expect(refused.error?.code).toBe('AUTH_REQUIRED');
      expect(refused.error?.serverName).toBe('secure');
      expect(refused.display).toContain('needs more permissions (scope "mcp:tools mcp:admin")');
      expect(refused.display).toContain('run "npx @toolhost/cli mcp auth secure"');
      expect(refused.toolCall).toMatchObject({ status: 'FAILED', error: { type: 'AUTH_REQUIRED' } });
      expect(servers.requestedScopes).toHaveLength(1);
      expect(authUrls).toHaveLength(1);

      const stepped = await host.callTool({ name: 'admin-op' });
      expect(stepped.error?.message ?? '').toBe('');
      expect(stepped.display).toBe('admin ok');
      expect(servers.requestedScopes).toHaveLength(2);
      expect(scopesOf(servers.requestedScopes[1])).toEqual(['mcp:admin', 'mcp:tools']);
      expect(new URL(authUrls[1] ?? '').searchParams.get('resource')).toBe(servers.mcpUrl);
      expect(scopesOf((await tokens.get('secure'))?.token.scope)).toEqual(['mcp:admin', 'mcp:tools']);
      // The other host reads the same store: the new token now works there too, without a flow.
      expect((await quiet.callTool({ name: 'admin-op' })).display).toBe('admin ok');
      expect(servers.requestedScopes).toHaveLength(2);
    } finally {
      await quiet.close();
      await host.close();
    }
  });

  it('holds the retry limit: a second 403 after the step-up fails with STEP_UP_LIMIT', async () => {
    servers.grantAdmin = false;
    servers.requestedScopes.length = 0;
    const tokens = new InMemoryTokenStore();
    const host = await McpToolHost.create({
      settings: settingsFor(servers.mcpUrl),
      stores: { tokens },
      ui: { openBrowser: createRedirectFollowingOpener() },
    });
    try {
      await host.servers.authenticate({ serverName: 'secure' });
      const result = await host.callTool({ name: 'admin-op' });
      expect(result.error?.code).toBe('STEP_UP_LIMIT');
      expect(result.error?.serverName).toBe('secure');
      expect(result.display).toContain('MCP server "secure" still refuses to call tool "admin-op" with insufficient_scope');
      expect(result.display).toContain('npx @toolhost/cli mcp auth secure');
      // The initial sign-in plus exactly one step-up: no loop.
      expect(servers.requestedScopes).toHaveLength(2);
      expect(scopesOf(servers.requestedScopes[1])).toEqual(['mcp:admin', 'mcp:tools']);
      // The connection survives: calls the token allows still work.
      expect((await host.callTool({ name: 'whoami' })).isError).toBe(false);
    } finally {
      await host.close();
      servers.grantAdmin = true;
    }
  });

  it('with oauth.enabled, discover() signs in at connect time and a later call steps up through ui.openBrowser', async () => {
    servers.requestedScopes.length = 0;
    const tokens = new InMemoryTokenStore();
    const opener = createRedirectFollowingOpener();
    const opened: string[] = [];
    const host = await McpToolHost.create({
      settings: settingsFor(servers.mcpUrl, { enabled: true }),
      stores: { tokens },
      ui: {
        openBrowser: async (url) => {
          opened.push(url);
          await opener(url);
        },
      },
    });
    try {
      // oauth.enabled: discover() signs in at connect time.
      await host.discover();
      expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
      expect((await host.callTool({ name: 'admin-op' })).display).toBe('admin ok');
      expect(opened).toHaveLength(2);
      expect(servers.requestedScopes.map(scopesOf)).toEqual([['mcp:tools'], ['mcp:admin', 'mcp:tools']]);
    } finally {
      await host.close();
    }
  });
});
