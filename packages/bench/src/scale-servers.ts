// The server process of `pnpm bench:scale`: many small Streamable HTTP MCP servers on loopback,
// one listener (own port) each, all in this one process so that the measuring process holds only
// clients. Started by `startScaleServers` (scale-server-process.ts) as
// `node dist/scale-servers.js --count=<n> --revision=<2025-11-25|2026-07-28>`; prints one JSON line
// `{"urls":[...]}` on stdout once every server listens, and exits when its stdin closes.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, isInitializeRequest, McpServer } from '@modelcontextprotocol/server';

/** A revision the scale servers speak. */
type ScaleRevision = '2025-11-25' | '2026-07-28';

const ECHO_INPUT = fromJsonSchema<{ message: string }>({
  type: 'object',
  properties: { message: { type: 'string', description: 'Text to echo back' } },
  required: ['message'],
});

/** A new MCP server with one tool, `echo`, which answers its `message` as text. */
function echoServer(): McpServer {
  const server = new McpServer({ name: 'scale-echo', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes back the message it is given.', inputSchema: ECHO_INPUT }, ({ message }) => ({
    content: [{ type: 'text', text: message }],
  }));
  return server;
}

function sendError(response: ServerResponse, status: number, message: string): void {
  response
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

/**
 * 2025-11-25 only: stateful sessions (each `initialize` opens one, with its own server instance);
 * anything else without a session, the `server/discover` probe of an `'auto'` client among them,
 * is answered 400 "No valid session", so clients fall back to `initialize`.
 */
function legacyListener(): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  return async (request, response) => {
    const sessionId = request.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    if (existing) return existing.handleRequest(request, response, body);
    if (request.method === 'POST' && isInitializeRequest(body)) {
      const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, transport),
        onsessionclosed: (id) => void sessions.delete(id),
      });
      await echoServer().connect(transport);
      return transport.handleRequest(request, response, body);
    }
    sendError(response, 400, 'No valid session');
  };
}

/** 2026-07-28 only: the SDK's era-negotiating entry with 2025-era requests rejected (a server instance per request). */
function modernListener(): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const serve = toNodeHandler(createMcpHandler(() => echoServer(), { legacy: 'reject' }));
  return async (request, response) => {
    await serve(request, response);
  };
}

async function listen(revision: ScaleRevision): Promise<{ server: Server; url: string }> {
  const handle = revision === '2025-11-25' ? legacyListener() : modernListener();
  const server = createServer((request, response) => {
    if ((request.url ?? '/').split('?')[0] !== '/mcp') return sendError(response, 404, 'Not found');
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, error instanceof Error ? error.message : String(error));
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
}

function option(name: string): string | undefined {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length);
}

async function main(): Promise<void> {
  const count = Number(option('count'));
  const revision = option('revision');
  if (!Number.isInteger(count) || count < 1) throw new Error(`--count must be a positive whole number, not '${option('count')}'`);
  if (revision !== '2025-11-25' && revision !== '2026-07-28')
    throw new Error(`--revision must be 2025-11-25 or 2026-07-28, not '${revision}'`);
  const servers: Server[] = [];
  const urls: string[] = [];
  // In batches: thousands of listen() calls at once are fine, but keep the start-up orderly.
  for (let start = 0; start < count; start += 100) {
    const started = await Promise.all(Array.from({ length: Math.min(100, count - start) }, () => listen(revision)));
    for (const { server, url } of started) {
      servers.push(server);
      urls.push(url);
    }
  }
  process.stdout.write(`${JSON.stringify({ urls })}\n`);
  const stop = () => {
    for (const server of servers) server.closeAllConnections();
    process.exit(0);
  };
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`scale servers: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
