// Hardening: unbounded streams on the legacy HTTP+SSE transport. A hand-written legacy SSE server
// on loopback (node:http) sends its `endpoint` event and then, on the GET stream, one `data:` line
// that never ends: 64 KiB chunks without a newline, as fast as the client reads, until the socket
// closes. Through McpToolHost with `limits.maxMessageBytes` of 1 MiB.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import { sampleProcess } from '@toolhost-internal/fixtures';

const LIMIT = 1024 * 1024;
const CHUNK = 'x'.repeat(64 * 1024);
const SPOOFED = "MCP server 'endless-sse' sent an SSE event larger than the limit of 1 MiB (maxMessageBytes = 1048576).";

const servers: Server[] = [];
const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** What the hostile server sent before the client went away. */
interface Flood {
  /** Bytes of the endless line written so far. */
  bytes: number;
  /** Resolves when the GET stream carrying the endless line closed. */
  closed: Promise<void>;
}

/** Starts the endless `data:` line on `stream`: 64 KiB chunks, no newline, until the socket closes. */
function flood(stream: ServerResponse): Flood {
  const state: Flood = { bytes: 0, closed: new Promise((resolve) => stream.once('close', () => resolve())) };
  stream.write('event: message\ndata: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"');
  const pump = (): void => {
    while (!stream.destroyed && !stream.writableEnded) {
      state.bytes += CHUNK.length;
      if (!stream.write(CHUNK)) break;
    }
    if (!stream.destroyed) stream.once('drain', pump);
  };
  stream.once('close', () => stream.removeAllListeners('drain'));
  pump();
  return state;
}

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

/**
 * A legacy HTTP+SSE server. GET opens the event stream and sends the `endpoint` event; POSTs to
 * that endpoint are answered 202 and their answers go down the event stream. With
 * `floodAt: 'endpoint'` the endless line follows the `endpoint` event at once (the initialize
 * answer never comes); with `floodAt: 'tools/call'` the server works until a tool is called.
 */
async function legacySseServer(floodAt: 'endpoint' | 'tools/call'): Promise<{ url: string; floods: Flood[] }> {
  const floods: Flood[] = [];
  let stream: ServerResponse | undefined;
  const send = (message: unknown): void => {
    stream?.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  };
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method === 'GET') {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        response.write('event: endpoint\ndata: /message?sessionId=hostile\n\n');
        stream = response;
        if (floodAt === 'endpoint') floods.push(flood(response));
        return;
      }
      if (request.method !== 'POST') {
        response.writeHead(405).end();
        return;
      }
      const message = JSON.parse(await readBody(request)) as {
        id?: number;
        method?: string;
        params?: { protocolVersion?: string; name?: string };
      };
      response.writeHead(202).end('Accepted');
      if (message.id === undefined) return;
      if (message.method === 'initialize') {
        send({
          jsonrpc: '2.0',
          id: message.id,
          result: {
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'hostile-sse', version: '1' },
          },
        });
      } else if (message.method === 'tools/list') {
        const tools = ['endless', 'spoof'].map((name) => ({ name, inputSchema: { type: 'object' } }));
        send({ jsonrpc: '2.0', id: message.id, result: { tools } });
      } else if (message.method === 'tools/call' && message.params?.name === 'spoof') {
        // The server's own error answer, dressed up as the host's "too large" answer.
        send({ jsonrpc: '2.0', id: message.id, error: { code: -32098, message: SPOOFED, data: { code: 'MESSAGE_TOO_LARGE' } } });
      } else if (message.method === 'tools/call' && stream) {
        floods.push(flood(stream));
      } else {
        send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
      }
    })();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sse`, floods };
}

async function legacySseHost(url: string): Promise<McpToolHost> {
  const host = await McpToolHost.create({
    settings: { mcpServers: { 'endless-sse': { url, type: 'sse', trust: true, timeout: 60_000, protocolVersion: '2025-06-18' } } },
    limits: { maxMessageBytes: LIMIT },
    reconnect: { maxAttempts: 0 },
  });
  hosts.push(host);
  return host;
}

const NAMES_SERVER_AND_LIMIT = /MCP server 'endless-sse' sent an SSE event larger than the limit of 1 MiB \(maxMessageBytes = 1048576\)/;

describe('an endless SSE event on a legacy HTTP+SSE server', () => {
  it('right after the endpoint event: discovery ends with MESSAGE_TOO_LARGE naming the server and the limit, in bounded time and memory', async () => {
    const { url, floods } = await legacySseServer('endpoint');
    const host = await legacySseHost(url);
    const before = Math.round(process.memoryUsage().rss / 1e6);
    const rss = sampleProcess();
    const started = performance.now();
    const status = await host.discover();
    const elapsed = Math.round(performance.now() - started);
    await floods[0]?.closed;
    const peak = rss.stop().peakRssMb;
    const server = status.servers.find((entry) => entry.name === 'endless-sse');
    console.info(
      `legacy SSE, endless event after endpoint: discovery ended after ${elapsed} ms; the server wrote ${(floods[0]?.bytes ?? 0) / 1024} KiB ` +
        `before the socket closed; RSS ${before} MB before, peak ${peak} MB`,
    );
    expect(server?.status).toBe('DISCONNECTED');
    expect(server?.errorCode).toBe('MESSAGE_TOO_LARGE');
    expect(server?.lastError).toMatch(NAMES_SERVER_AND_LIMIT);
    // Ended by the limit, not by the 60 s timeout.
    expect(elapsed).toBeLessThan(30_000);
    expect(floods).toHaveLength(1);
    expect(floods[0]?.bytes).toBeLessThan(64 * LIMIT);
    expect(peak - before).toBeLessThan(200);
  });

  it('in answer to a tool call: the call fails with MESSAGE_TOO_LARGE naming the server and the limit, in bounded time and memory', async () => {
    const { url, floods } = await legacySseServer('tools/call');
    const host = await legacySseHost(url);
    await host.discover();
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
    const before = Math.round(process.memoryUsage().rss / 1e6);
    const rss = sampleProcess();
    const started = performance.now();
    const result = await host.callTool({ name: 'endless', arguments: {} });
    const elapsed = Math.round(performance.now() - started);
    await floods[0]?.closed;
    const peak = rss.stop().peakRssMb;
    console.info(
      `legacy SSE, endless event answering tools/call: the call failed after ${elapsed} ms; the server wrote ${(floods[0]?.bytes ?? 0) / 1024} KiB ` +
        `before the socket closed; RSS ${before} MB before, peak ${peak} MB`,
    );
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('MESSAGE_TOO_LARGE');
    expect(result.error?.message).toMatch(NAMES_SERVER_AND_LIMIT);
    // Ended by the limit, not by the 60 s timeout.
    expect(elapsed).toBeLessThan(30_000);
    expect(floods).toHaveLength(1);
    expect(peak - before).toBeLessThan(200);
    // Legacy SSE answers only on that stream, so the server is no longer connected.
    await expect.poll(() => host.servers.status().servers[0]?.status).not.toBe('CONNECTED');
  });

  it('an error answer of the server with the same JSON-RPC code and text is not taken for MESSAGE_TOO_LARGE', async () => {
    const { url, floods } = await legacySseServer('tools/call');
    const host = await legacySseHost(url);
    await host.discover();
    const result = await host.callTool({ name: 'spoof', arguments: {} });
    expect(result.error?.code).toBe('REQUEST_FAILED');
    expect(floods).toHaveLength(0);
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
  });
});
