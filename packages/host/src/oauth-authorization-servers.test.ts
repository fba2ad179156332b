// OAuth through McpToolHost against servers on loopback that speak MCP 2025-11-25 or 2026-07-28:
// a protected MCP server whose protected-resource metadata can move from one authorization server
// to another (and then accepts only the new one's tokens), and authorization servers that register
// clients dynamically and issue tokens for the scopes requested.
import { createRedirectFollowingOpener, InMemoryTokenStore } from '@toolhost/oauth';
import { afterEach, describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import {
  authorizationServerMetadata,
  type ProtectedMcpServerOptions,
  type RouteAnswer,
  startJsonRoutesServer,
  startProtectedMcpServer,
} from '@toolhost-internal/fixtures/oauth';
import { McpToolHost } from './mcp-tool-host.js';
import type { HostSettings } from './resolve-servers.js';

interface AuthorizationServer {
  readonly url: string;
  /** The client ids it registered, in order. */
  readonly registered: string[];
  /** The `client_id` and `scope` of every authorization request, in order. */
  readonly authorizations: Array<{ clientId: string; scope: string }>;
  /** The client ids that asked for tokens. */
  readonly tokenClients: string[];
  /** The scope and client of each token it issued. */
  readonly issued: Map<string, { scope: string; clientId: string }>;
  close(): Promise<void>;
}

async function startAuthorizationServer(name: string): Promise<AuthorizationServer> {
  const registered: string[] = [];
  const authorizations: Array<{ clientId: string; scope: string }> = [];
  const tokenClients: string[] = [];
  const issued = new Map<string, { scope: string; clientId: string }>();
  const codes = new Map<string, { scope: string; clientId: string }>();
  const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
    const url = new URL(request.path, base);
    switch (url.pathname) {
      case '/.well-known/oauth-authorization-server':
        return { body: authorizationServerMetadata(base) };
      case '/register': {
        const clientId = `${name}-client-${registered.length + 1}`;
        registered.push(clientId);
        return { status: 201, body: { client_id: clientId, token_endpoint_auth_method: 'none' } };
      }
      case '/authorize': {
        const clientId = url.searchParams.get('client_id') ?? '';
        const scope = url.searchParams.get('scope') ?? '';
        authorizations.push({ clientId, scope });
        const code = `${name}-code-${codes.size + 1}`;
        codes.set(code, { scope, clientId });
        const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
        redirect.searchParams.set('code', code);
        redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
        return { status: 302, headers: { location: redirect.href } };
      }
      case '/token': {
        const form = new URLSearchParams(request.body);
        tokenClients.push(form.get('client_id') ?? '');
        const grant = codes.get(form.get('code') ?? '');
        if (!grant) return { status: 400, body: { error: 'invalid_grant' } };
        const token = `${name}-at-${issued.size + 1}`;
        issued.set(token, grant);
        return { body: { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: grant.scope } };
      }
      default:
        return undefined;
    }
  });
  return { url: server.url, registered, authorizations, tokenClients, issued, close: server.close };
}

const opened: string[] = [];
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
  opened.length = 0;
});

/** A host on one server entry `moving`, whose browser follows the redirect as a user approving would. */
async function hostFor(
  url: string,
  oauth: Record<string, unknown>,
  revision: '2025-11-25' | '2026-07-28',
): Promise<{ host: McpToolHost; signIns: string[] }> {
  const opener = createRedirectFollowingOpener();
  const settings: HostSettings = {
    mcpServers: {
      moving: {
        httpUrl: url,
        trust: true,
        protocolVersion: revision,
        oauth: { redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true, ...oauth },
      },
    },
  };
  const host = await McpToolHost.create({
    settings,
    stores: { tokens: new InMemoryTokenStore() },
    ui: {
      openBrowser: async (target) => {
        opened.push(target);
        await opener(target);
      },
    },
  });
  closing.push(() => host.close());
  const signIns: string[] = [];
  host.on('sign-in-start', (event) => signIns.push(event.url));
  return { host, signIns };
}

async function whoami(host: McpToolHost): Promise<{ clientId?: string; scope?: string; error?: string; code?: string }> {
  const result = await host.callTool({ name: 'whoami', arguments: {} });
  if (result.error) return { error: result.display, code: result.error.code };
  return JSON.parse(result.display) as { clientId?: string; scope?: string };
}

describe.each([
  ['2025-11-25', '2025'],
  ['2026-07-28', '2026-07-28'],
] as const)('MCP %s through McpToolHost', (revision, era) => {
  async function movingServer(extra: Partial<ProtectedMcpServerOptions> = {}) {
    const as1 = await startAuthorizationServer('as1');
    const as2 = await startAuthorizationServer('as2');
    let current = as1;
    const mcp = await startProtectedMcpServer({
      era,
      authorizationServers: () => [current.url],
      verifyAccessToken: async (token) => {
        const grant = current.issued.get(token);
        return grant ? { audience: mcp.resource, scope: grant.scope, clientId: grant.clientId } : undefined;
      },
      ...extra,
    });
    closing.push(as1.close, as2.close, mcp.close);
    return {
      as1,
      as2,
      mcp,
      move: () => {
        current = as2;
      },
    };
  }

  it('with oauth.enabled, a server that moves to another authorization server is followed: registered again there, signed in, and the call goes through', async () => {
    const { as1, as2, mcp, move } = await movingServer();
    const { host, signIns } = await hostFor(mcp.url, { enabled: true }, revision);
    await host.discover(); // oauth.enabled: signs in with as1
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
    expect(as1.registered).toEqual(['as1-client-1']);
    expect((await whoami(host)).clientId).toBe('as1-client-1');

    move(); // the protected-resource metadata now names as2, and as1's tokens are refused
    const after = await whoami(host); // 401, migration, the same call again
    expect(after).toEqual({ clientId: 'as2-client-1', scope: 'mcp:tools' });
    expect(as2.registered).toEqual(['as2-client-1']);
    // Nothing of as1 went to as2 (SEP-2352).
    expect(as2.authorizations.map((a) => a.clientId)).toEqual(['as2-client-1']);
    expect(as2.tokenClients).toEqual(['as2-client-1']);
    // The sign-in was announced like any other, and went to as2.
    expect(signIns).toHaveLength(2);
    expect(new URL(signIns[1] ?? '').origin).toBe(as2.url);
    expect(opened).toHaveLength(2);
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
  });

  it('without oauth.enabled, the host opens no browser for a move: the call fails with AUTH_REQUIRED naming both servers, and /mcp auth signs in with the new one', async () => {
    const { as1, as2, mcp, move } = await movingServer();
    const { host, signIns } = await hostFor(mcp.url, {}, revision);
    await host.servers.authenticate({ serverName: 'moving' });
    expect((await whoami(host)).clientId).toBe('as1-client-1');

    move();
    const refused = await whoami(host);
    expect(refused.code).toBe('AUTH_REQUIRED');
    expect(refused.error).toContain(JSON.stringify(as1.url));
    expect(refused.error).toContain(JSON.stringify(as2.url));
    expect(refused.error).toContain('npx @toolhost/cli mcp auth moving');
    // The refusal is an answer: the server stays connected.
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
    expect(as2.registered).toEqual([]);
    expect(signIns).toHaveLength(1);

    await host.servers.authenticate({ serverName: 'moving' });
    expect(as2.registered).toEqual(['as2-client-1']);
    expect((await whoami(host)).clientId).toBe('as2-client-1');
  });

  it('signs in with the scope of the challenge the server sent, and steps up with the union of held and challenged scopes', async () => {
    // Like the suite's auth/scope-step-up: scopes_supported differs from what the 401 asks for,
    // initialize is let through (a 2026-07-28 server refuses it anyway), and the 403 names only the new scope.
    const { as1, mcp } = await movingServer({
      requiredScope: 'mcp:basic',
      adminScope: 'mcp:write',
      adminChallengeScope: 'mcp:write',
      scopesSupported: ['mcp:profile'],
      unprotectedMethods: ['initialize'],
    });
    const { host } = await hostFor(mcp.url, { enabled: true }, revision);
    await host.discover();
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
    expect(as1.authorizations.map((a) => a.scope)).toEqual(['mcp:basic']);
    // The recorded challenge was used: the server was not probed for one.
    expect(mcp.seen.filter((request) => request.clientName === 'toolhost-oauth-probe')).toEqual([]);

    const stepped = await host.callTool({ name: 'admin-op', arguments: {} });
    expect(stepped.error?.message ?? '').toBe('');
    expect(stepped.display).toBe('admin ok');
    expect(as1.authorizations.map((a) => a.scope.split(' ').sort())).toEqual([['mcp:basic'], ['mcp:basic', 'mcp:write']]);
  });
});
