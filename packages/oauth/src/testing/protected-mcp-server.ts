import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { verifyDpopProof, type VerifiedDpopProof } from './dpop-servers.js';

/** What a token verifier reports about a valid access token. */
export interface VerifiedToken {
  /** Audience (the resource the token was issued for). */
  audience: string | string[] | undefined;
  /** Granted scopes, space-separated. */
  scope: string;
  /** Client id. */
  clientId: string;
  /** RFC 7638 thumbprint of the key a DPoP-bound token is bound to (`cnf.jkt`). */
  jkt?: string;
}

/** DPoP (RFC 9449) at the MCP endpoint of {@link startProtectedMcpServer}. */
export interface ProtectedMcpServerDpop {
  /** Publish `dpop_bound_access_tokens_required: true` in the protected-resource metadata. */
  requiredInMetadata?: boolean;
  /** The challenge's `algs`. @default 'ES256' */
  algs?: string;
  /**
   * Nonces (RFC 9449 §9): `none` (the default) asks for none; `required` answers a proof without
   * the nonce `rs-nonce-1` with `401 use_dpop_nonce` and a `DPoP-Nonce` header; `forever` answers
   * every proof so, with a new nonce each time (a hostile server).
   */
  nonce?: 'none' | 'required' | 'forever';
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
  /** The `scope` of the 403 that `admin-op` gets without the admin scope. @default `<requiredScope> <adminScope>` */
  adminChallengeScope?: string;
  /**
   * The revision served: `2025` (stateless 2025 Streamable HTTP, the default) or `2026-07-28`
   * (the SDK's era-negotiating entry, 2026-07-28 only: a 2025 `initialize` gets a 400).
   */
  era?: '2025' | '2026-07-28';
  /** JSON-RPC methods let through without a token, as servers that protect only later requests do. @default none */
  unprotectedMethods?: string[];
  /**
   * Accept DPoP-bound tokens (`Authorization: DPoP` with a proof checked by {@link verifyDpopProof},
   * bound to the token's key) and offer the `DPoP` scheme in challenges. A DPoP-bound token sent as
   * `Bearer` is refused. Without it only `Bearer` is read.
   */
  dpop?: ProtectedMcpServerDpop;
}

/** One request to the MCP endpoint, as {@link startProtectedMcpServer} saw it. */
export interface SeenMcpRequest {
  /** The JSON-RPC method, when the body had one. */
  method: string | undefined;
  /** Whether it carried a bearer token. */
  withToken: boolean;
  /** `params.clientInfo.name` of an `initialize`, or `_meta` clientInfo of a 2026-07-28 request. */
  clientName: string | undefined;
  /** The HTTP status of the answer. */
  status: number;
  /** The `Authorization` scheme, when there was one. */
  scheme?: string;
  /** The checked DPoP proof, when one came. */
  dpopProof?: VerifiedDpopProof;
  /** Why a DPoP proof was refused. */
  dpopError?: string;
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
  seen: SeenMcpRequest[];
  close: () => Promise<void>;
}> {
  const requiredScope = options.requiredScope ?? 'mcp:tools';
  const adminScope = options.adminScope ?? 'mcp:admin';
  const accepted: VerifiedToken[] = [];
  const seen: SeenMcpRequest[] = [];
  let rsNonces = 0;
  const buildServer = (caller: () => VerifiedToken | undefined) => {
    const server = new McpServer({ name: 'protected-fixture', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Returns the client id and scope of the caller.' }, async (ctx) => {
      // 2026-07-28 (one server per request): the caller is the request's authInfo.
      const info = ctx.http?.authInfo;
      const who = info ? { clientId: info.clientId, scope: info.extra?.scope } : { clientId: caller()?.clientId, scope: caller()?.scope };
      return { content: [{ type: 'text', text: JSON.stringify(who) }] };
    });
    server.registerTool('admin-op', { description: 'Needs the admin scope.' }, async () => ({
      content: [{ type: 'text', text: 'admin ok' }],
    }));
    return server;
  };
  // 2026-07-28: one server instance per request; the caller travels as the request's authInfo.
  const modern = options.era === '2026-07-28' ? createMcpHandler(() => buildServer(() => undefined), { legacy: 'reject' }) : undefined;
  const serveModern = modern ? toNodeHandler(modern) : undefined;
  let origin = '';
  const resource = () => `${origin}/mcp`;
  const prmUrl = () => `${origin}/.well-known/oauth-protected-resource/mcp`;
  const challenge = (res: ServerResponse, status: number, params: Record<string, string>, extraHeaders: Record<string, string> = {}) => {
    const header = [
      options.dpop ? `DPoP algs="${options.dpop.algs ?? 'ES256'}",` : 'Bearer',
      Object.entries(params)
        .map(([k, v]) => `${k}="${v}"`)
        .join(', '),
    ].join(' ');
    res.writeHead(status, { 'www-authenticate': header, 'content-type': 'application/json', ...extraHeaders });
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
          ...(options.dpop?.requiredInMetadata ? { dpop_bound_access_tokens_required: true } : {}),
        }),
      );
      return;
    }
    if (path !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    const auth = req.headers.authorization;
    const scheme = auth?.split(' ')[0];
    const token =
      auth?.startsWith('Bearer ') || (options.dpop && auth?.startsWith('DPoP ')) ? auth.slice(auth.indexOf(' ') + 1) : undefined;
    type Message = {
      method?: string;
      params?: { name?: string; clientInfo?: { name?: string }; _meta?: Record<string, { name?: string }> };
    };
    const message = body ? (JSON.parse(body) as Message) : undefined;
    const entry: SeenMcpRequest = {
      method: message?.method,
      withToken: token !== undefined,
      clientName: message?.params?.clientInfo?.name ?? message?.params?._meta?.['io.modelcontextprotocol/clientInfo']?.name,
      status: 0,
    };
    if (scheme) entry.scheme = scheme;
    seen.push(entry);
    res.on('finish', () => (entry.status = res.statusCode));
    if (options.dpop && token && scheme === 'DPoP') {
      const checked = await verifyDpopProof(req.headers['dpop'], { htm: req.method ?? '', htu: resource(), accessToken: token });
      if (!checked.ok) {
        entry.dpopError = checked.error;
        return challenge(res, 401, { error: 'invalid_dpop_proof', error_description: checked.error, resource_metadata: prmUrl() });
      }
      entry.dpopProof = checked.proof;
      const wanted =
        options.dpop.nonce === 'forever' ? `rs-nonce-${++rsNonces}` : options.dpop.nonce === 'required' ? 'rs-nonce-1' : undefined;
      if (wanted !== undefined && (options.dpop.nonce === 'forever' || checked.proof.nonce !== wanted)) {
        return challenge(res, 401, { error: 'use_dpop_nonce', resource_metadata: prmUrl() }, { 'DPoP-Nonce': wanted });
      }
    }
    const unprotected = !token && message?.method !== undefined && options.unprotectedMethods?.includes(message.method) === true;
    const found = token ? await options.verifyAccessToken(token) : undefined;
    // A DPoP-bound token counts only with a proof of its key (RFC 9449 §7); a bearer token only as Bearer.
    const verified =
      found && (found.jkt === undefined ? scheme === 'Bearer' : scheme === 'DPoP' && entry.dpopProof?.jkt === found.jkt)
        ? found
        : undefined;
    const audiences = verified ? [verified.audience].flat() : [];
    if (!unprotected && (!verified || !audiences.includes(resource()))) {
      return challenge(res, 401, { resource_metadata: prmUrl(), scope: requiredScope, ...(token ? { error: 'invalid_token' } : {}) });
    }
    const scopes = verified?.scope.split(' ') ?? [];
    if (verified && !scopes.includes(requiredScope))
      return challenge(res, 403, { error: 'insufficient_scope', scope: requiredScope, resource_metadata: prmUrl() });
    if (message?.method === 'tools/call' && message.params?.name === 'admin-op' && !scopes.includes(adminScope)) {
      const scope = options.adminChallengeScope ?? `${requiredScope} ${adminScope}`;
      return challenge(res, 403, { error: 'insufficient_scope', scope, resource_metadata: prmUrl() });
    }
    if (verified) accepted.push(verified);
    if (serveModern) {
      if (verified) {
        (req as IncomingMessage & { auth?: unknown }).auth = {
          token,
          clientId: verified.clientId,
          scopes,
          extra: { scope: verified.scope },
        };
      }
      await serveModern(req, res, message);
      return;
    }
    const server = buildServer(() => verified);
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
    seen,
    close: async () => {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
      await modern?.close();
    },
  };
}
