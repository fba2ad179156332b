// A legacy SSE server that opens its event stream and never sends the `endpoint` event.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServerManager } from './mcp-server-manager.js';
import { McpServerStatus } from './server-status.js';

const servers: Server[] = [];
const streams: ServerResponse[] = [];
const managers: McpServerManager[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  for (const stream of streams.splice(0)) stream.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Answers GET with `text/event-stream` headers and then nothing; POST with 405 (so an untyped url falls back to SSE). */
async function silentSseServer(): Promise<string> {
  const server = createServer((request, response) => {
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.flushHeaders();
      streams.push(response);
      return;
    }
    response.writeHead(405).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`;
}

describe('a legacy SSE server that never sends its endpoint event', () => {
  it('ends discovery within the timeout with the server DISCONNECTED and an error naming it and the endpoint event', async () => {
    const url = await silentSseServer();
    // 10 s: the untyped entry first tries Streamable HTTP (405) and only then opens the SSE stream;
    // the deadline must find it waiting for the endpoint event, even on a busy machine.
    const manager = new McpServerManager({
      servers: [
        { name: 'silent-sse', config: { url, type: 'sse', timeout: 10_000 } },
        { name: 'silent-fallback', config: { url, timeout: 10_000 } },
      ],
      reconnect: { maxAttempts: 0 },
    });
    managers.push(manager);
    const started = Date.now();
    const snapshots = await manager.discoverAll();
    const elapsed = Date.now() - started;
    // The 10 s timeout ends it (a server left waiting would keep discovery until the test times out).
    expect(elapsed).toBeLessThan(40_000);
    for (const snapshot of snapshots) {
      expect(snapshot.status).toBe(McpServerStatus.DISCONNECTED);
      expect(snapshot.lastError?.message).toContain(`MCP server '${snapshot.name}'`);
      expect(snapshot.lastError?.message).toMatch(/never sent the `endpoint` event/);
    }
    console.info(`silent SSE servers: discovery ended after ${elapsed} ms`);
  });

  it('close() returns promptly while discovery still waits for the endpoint event', async () => {
    const url = await silentSseServer();
    const manager = new McpServerManager({ servers: [{ name: 'silent', config: { url, type: 'sse', timeout: 60_000 } }] });
    managers.push(manager);
    const discovery = manager.discoverAll();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await manager.close();
    const closeMs = Date.now() - started;
    await discovery;
    // Not after the 60 s the discovery would wait.
    expect(closeMs).toBeLessThan(20_000);
    console.info(`silent SSE server: close() took ${closeMs} ms`);
  });
});
