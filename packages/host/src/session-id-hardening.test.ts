// Hardening: a Streamable HTTP server's Mcp-Session-Id must be visible ASCII (0x21–0x7E, MCP
// transports spec); one with spaces, control or non-ASCII characters is refused with an error
// naming the server instead of being adopted and echoed in every later request.
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** A minimal Streamable HTTP server (JSON answers) that hands out `sessionId` on initialize. */
async function startServer(sessionId: string): Promise<string> {
  const server = createServer((request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: message.params?.protocolVersion,
              capabilities: { tools: {} },
              serverInfo: { name: 'session', version: '1.0.0' },
            }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] }
            : {};
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (message.method === 'initialize') headers['mcp-session-id'] = sessionId;
      response.writeHead(200, headers).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
}

async function statusWith(sessionId: string) {
  const url = await startServer(sessionId);
  const host = await McpToolHost.create({
    settings: { mcpServers: { sessions: { httpUrl: url, timeout: 5_000, protocolVersion: '2025-11-25' } } },
  });
  try {
    await host.discover();
    return host.servers.status().servers[0];
  } finally {
    await host.close();
  }
}

describe('Streamable HTTP session ids', () => {
  it('refuses a session id with a space, naming the server', async () => {
    const server = await statusWith('abc def');
    expect(server?.status).toBe('DISCONNECTED');
    expect(server?.errorCode).toBe('INVALID_SESSION_ID');
    expect(server?.lastError).toMatch(/MCP server 'sessions' \(http:\/\/127\.0\.0\.1:\d+\/mcp\) sent an invalid session id "abc def"/);
  });

  it('refuses a session id with non-ASCII characters', async () => {
    const server = await statusWith('s\u00e9ssion\u00ff');
    expect(server?.status).toBe('DISCONNECTED');
    expect(server?.errorCode).toBe('INVALID_SESSION_ID');
  });

  it('accepts a visible-ASCII session id', async () => {
    const server = await statusWith('a-VALID_session.id~!');
    expect(server?.status).toBe('CONNECTED');
  });
});
