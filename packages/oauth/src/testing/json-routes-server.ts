import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of {@link startJsonRoutesServer}. */
export interface RouteAnswer {
  /** HTTP status. @default 200 */
  status?: number;
  /** JSON body (or a string sent as is). */
  body?: unknown;
  /** Extra headers. */
  headers?: Record<string, string>;
}

/** A request seen by {@link startJsonRoutesServer}. */
export interface SeenRequest {
  /** Method. */
  method: string;
  /** Path with query. */
  path: string;
  /** Body text. */
  body: string;
  /** Request headers. */
  headers: IncomingMessage['headers'];
}

/** Route handler: path (without query) → answer; `undefined` gives 404. */
export type RouteHandler = (request: SeenRequest, baseUrl: string) => RouteAnswer | undefined;

/**
 * A tiny loopback HTTP server that answers JSON per path and records every request: the stand-in
 * for hostile or oddly configured authorization and resource servers in unit tests.
 */
export async function startJsonRoutesServer(handler: RouteHandler): Promise<{
  url: string;
  requests: SeenRequest[];
  close: () => Promise<void>;
}> {
  const requests: SeenRequest[] = [];
  let baseUrl = '';
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: SeenRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
      };
      requests.push(seen);
      const answer = handler(seen, baseUrl);
      if (!answer) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":"not_found"}');
        return;
      }
      const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * RFC 8414 metadata of a test authorization server at `base` that approves without a login page:
 * `/authorize`, `/token` and `/register` on it, PKCE S256, the code flow; `extra` adds or overrides fields.
 */
export function authorizationServerMetadata(base: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuer: base,
    authorization_endpoint: `${base}/authorize`,
    token_endpoint: `${base}/token`,
    registration_endpoint: `${base}/register`,
    code_challenge_methods_supported: ['S256'],
    response_types_supported: ['code'],
    ...extra,
  };
}
