// End to end: a remote MCP server behind a real OAuth authorization server on loopback
// (the SDK's legacy auth router with an auto-approving in-memory provider), signed in through McpToolHost.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { requireBearerAuth, getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/server-legacy/auth';
import { createRedirectFollowingOpener, InMemoryTokenStore } from '@toolhost/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AutoApprovingOAuthProvider } from './auto-approving-oauth-provider.test-helper.js';
import { McpToolHost } from './mcp-tool-host.js';

async function startProtectedServer(): Promise<{ url: string; server: Server }> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mcpUrl = new URL(`${base}/mcp`);
  const provider = new AutoApprovingOAuthProvider((resource) => resource?.href === mcpUrl.href);
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl, scopesSupported: ['mcp:tools'] }));
  const bearer = requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) });
  app.post('/mcp', express.json(), bearer, async (req, res) => {
    const mcp = new McpServer({ name: 'protected', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Says which client called.' }, (ctx) => ({
      content: [{ type: 'text', text: `client ${ctx.http?.authInfo?.clientId ?? 'unknown'}` }],
    }));
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return { url: mcpUrl.href, server };
}

describe('OAuth sign-in through McpToolHost', () => {
  let protectedServer: { url: string; server: Server };
  let host: McpToolHost;
  const tokens = new InMemoryTokenStore();
  const urls: string[] = [];

  beforeAll(async () => {
    protectedServer = await startProtectedServer();
    host = await McpToolHost.create({
      settings: {
        mcpServers: {
          secure: {
            httpUrl: protectedServer.url,
            trust: true,
            oauth: { redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true },
          },
        },
      },
      stores: { tokens },
      ui: { openBrowser: createRedirectFollowingOpener() },
    });
    host.on('sign-in-start', ({ url }) => urls.push(url));
  });

  afterAll(async () => {
    await host.close();
    protectedServer.server.closeAllConnections();
    protectedServer.server.close();
  });

  it('reports the server as needing sign-in, never opening a browser by itself', async () => {
    await host.discover();
    const server = host.servers.status().servers[0];
    expect(server?.status).toBe('DISCONNECTED');
    expect(server?.needsAuthentication).toBe(true);
    // The OAuth provider is passed although no token is stored; its AUTH_REQUIRED survives transport and discovery.
    expect(server?.errorCode).toBe('AUTH_REQUIRED');
    expect(server?.lastError).toContain('requires authentication: run "npx @toolhost/cli mcp auth secure" (or your host\'s equivalent)');
    expect(urls).toEqual([]);
  });

  it('/mcp auth <server> signs in, stores the token and connects', async () => {
    const result = await host.commands.run({ line: '/mcp auth secure' });
    expect(result.text).toBe('Signed in to MCP server "secure"; it is now CONNECTED.');
    expect(urls).toHaveLength(1);
    const authorizationUrl = new URL(urls[0] ?? '');
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(protectedServer.url);
    expect(await tokens.get('secure')).toBeDefined();
    const call = await host.callTool({ name: 'whoami', arguments: {} });
    expect(call.error?.message ?? '').toBe('');
    expect(call.parts[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^client \S+/) });
  });

  it('connects with the stored token on the next start, without signing in again', async () => {
    const again = await McpToolHost.create({
      settings: { mcpServers: { secure: { httpUrl: protectedServer.url, trust: true } } },
      stores: { tokens },
    });
    try {
      await again.discover();
      expect(again.servers.status().servers[0]?.status).toBe('CONNECTED');
    } finally {
      await again.close();
    }
  });
});
