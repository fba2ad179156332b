import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';

/** What a token verifier reports about a valid access token. */
export interface VerifiedToken {
  /** Audience (the resource the token was issued for). */
  audience: string | string[] | undefined;
  /** Granted scopes, space-separated. */
  scope: string;
  /** Client id. */
  clientId: string;
}

/** Options of {@link startProtectedMcpServer}. */
export interface ProtectedMcpServerOptions {
  /** Authorization servers listed in the protected-resource metadata. */
  authorizationServers: () => string[];
  /** Checks an access token; `undefined` means invalid. */
  verifyAccessToken: (token: string) => Promise<VerifiedToken | undefined>;
  /** Scope every request needs. @default 'mcp:tools' */
  requiredScope?: string;
  /** Extra scope the `admin-op` tool needs (step-up). @default 'mcp:admin' */
  adminScope?: string;
  /** `scopes_supported` of the protected-resource metadata. */
  scopesSupported?: string[];
}

/**
 * A Streamable HTTP MCP server protected by OAuth: it publishes RFC 9728 metadata at the
 * path-inserted well-known URL, answers 401 with a `Bearer resource_metadata=... scope=...`
 * challenge, checks each token's audience against its own resource URL and its scopes, and
 * answers 403 `insufficient_scope` for the `admin-op` tool without the admin scope.
 */
export async function startProtectedMcpServer(options: ProtectedMcpServerOptions): Promise<{
  url: string;
  resource: string;
  accepted: VerifiedToken[];
  close: () => Promise<void>;
}> {
  const requiredScope = options.requiredScope ?? 'mcp:tools';
  const adminScope = options.adminScope ?? 'mcp:admin';
  const accepted: VerifiedToken[] = [];
  let origin = '';
  const resource = () => `${origin}/mcp`;
  const prmUrl = () => `${origin}/.well-known/oauth-protected-resource/mcp`;
  const challenge = (res: ServerResponse, status: number, params: Record<string, string>) => {
    const header = [
      'Bearer',
      Object.entries(params)
        .map(([k, v]) => `${k}="${v}"`)
        .join(', '),
    ].join(' ');
    res.writeHead(status, { 'www-authenticate': header, 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: params.error ?? 'unauthorized' }));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse, body: string) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/.well-known/oauth-protected-resource/mcp') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          resource: resource(),
          authorization_servers: options.authorizationServers(),
          scopes_supported: options.scopesSupported,
          bearer_methods_supported: ['header'],
        }),
      );
      return;
    }
    if (path !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const auth = req.headers.authorization;
    const token = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
    const verified = token ? await options.verifyAccessToken(token) : undefined;
    const audiences = verified ? [verified.audience].flat() : [];
    if (!verified || !audiences.includes(resource())) {
      return challenge(res, 401, { resource_metadata: prmUrl(), scope: requiredScope, ...(token ? { error: 'invalid_token' } : {}) });
    }
    const scopes = verified.scope.split(' ');
    if (!scopes.includes(requiredScope))
      return challenge(res, 403, { error: 'insufficient_scope', scope: requiredScope, resource_metadata: prmUrl() });
    const message = body ? (JSON.parse(body) as { method?: string; params?: { name?: string } }) : undefined;
    if (message?.method === 'tools/call' && message.params?.name === 'admin-op' && !scopes.includes(adminScope)) {
      return challenge(res, 403, { error: 'insufficient_scope', scope: `${requiredScope} ${adminScope}`, resource_metadata: prmUrl() });
    }
    accepted.push(verified);
    const server = new McpServer({ name: 'protected-fixture', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Returns the client id and scope of the caller.' }, async () => ({
      content: [{ type: 'text', text: JSON.stringify({ clientId: verified.clientId, scope: verified.scope }) }],
    }));
    server.registerTool('admin-op', { description: 'Needs the admin scope.' }, async () => ({
      content: [{ type: 'text', text: 'admin ok' }],
    }));
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    res.on('close', () => void server.close());
    await transport.handleRequest(req, res, message);
  };
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: resource(),
    resource: resource(),
    accepted,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
