// Hardening: unbounded streams. Hostile servers on loopback (inline node:http servers, stdio
// scripts in a temp file) that send endless SSE events, absurd `retry:` values and huge lines.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport, type ConnectedTransport } from './connect-transport.js';
import { firstText, newClient } from './test-helpers.js';
import { sampleProcess } from '@toolhost-internal/fixtures';

const PROTOCOL_VERSION = '2025-06-18';
const folder = mkdtempSync(join(tmpdir(), 'toolhost-message-limits-'));
const servers: Server[] = [];
const connections: ConnectedTransport[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += String(chunk);
  return body;
}

type Handler = (request: IncomingMessage, response: ServerResponse, message: { id?: number; method?: string } | undefined) => void;

/** A Streamable HTTP server that answers initialize, and hands everything else to `handle`. */
async function hostileHttpServer(handle: Handler): Promise<string> {
  const server = createServer((request, response) => {
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request) : '';
      const message = body ? (JSON.parse(body) as { id?: number; method?: string }) : undefined;
      if (message?.method === 'initialize') {
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'hostile' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: message.id,
            result: { protocolVersion: PROTOCOL_VERSION, capabilities: { tools: {} }, serverInfo: { name: 'hostile', version: '1' } },
          }),
        );
        return;
      }
      if (message && message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      if (request.method === 'DELETE') {
        response.writeHead(200).end();
        return;
      }
      handle(request, response, message);
    })();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** Writes `data: xxx…` forever (as fast as the client reads) without ever ending the event. */
function streamEndlessEvent(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"');
  const chunk = 'x'.repeat(64 * 1024);
  const pump = (): void => {
    while (!response.destroyed && response.write(chunk));
    if (!response.destroyed) response.once('drain', pump);
  };
  response.on('close', () => response.removeAllListeners('drain'));
  pump();
}

describe('HTTP streams are bounded', () => {
  it('an endless SSE event on Streamable HTTP fails the call with MESSAGE_TOO_LARGE naming the server and the limit, RSS bounded', async () => {
    const url = await hostileHttpServer((request, response) => {
      if (request.method === 'GET') response.writeHead(405).end();
      else streamEndlessEvent(response);
    });
    const client = newClient();
    const connection = await connectTransport({
      serverName: 'endless',
      config: { httpUrl: url, protocolVersion: PROTOCOL_VERSION },
      client,
      timeout: 60_000,
    });
    connections.push(connection);
    const before = Math.round(process.memoryUsage().rss / 1e6);
    const rss = sampleProcess();
    const started = Date.now();
    const error = await client.callTool({ name: 'endless', arguments: {} }, { timeout: 60_000 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const peak = rss.stop().peakRssMb;
    console.info(`endless SSE event: failed after ${Date.now() - started} ms; RSS ${before} MB before, peak ${peak} MB`);
    expect(String((error as Error | undefined)?.message)).toMatch(/MCP server 'endless' sent an SSE event larger than the limit of 32 MiB/);
    expect(peak - before).toBeLessThan(400);
  });

  it('a JSON body over the limit fails the call with MESSAGE_TOO_LARGE', async () => {
    const url = await hostileHttpServer((request, response) => {
      if (request.method === 'GET') {
        response.writeHead(405).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'y'.repeat(2 * 1024 * 1024) }] } }));
    });
    const client = newClient();
    const connection = await connectTransport({
      serverName: 'bulky',
      config: { httpUrl: url, protocolVersion: PROTOCOL_VERSION },
      client,
      timeout: 60_000,
      maxMessageBytes: 1024 * 1024,
    });
    connections.push(connection);
    await expect(client.callTool({ name: 'bulky', arguments: {} }, { timeout: 60_000 })).rejects.toThrow(
      /MCP server 'bulky' sent an HTTP response body larger than the limit of 1 MiB/,
    );
  });

  it('an answer stream split inside multi-byte characters and inside a retry: line arrives intact', async () => {
    const text = 'naïve café ✓ 😀 done';
    const event = `retry: 99999999999\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } })}\n\n`;
    const bytes = Buffer.from(event, 'utf8');
    const afterI = bytes.indexOf(Buffer.from('ve café'));
    const cafe = bytes.indexOf(Buffer.from('é'));
    const smiley = bytes.indexOf(Buffer.from('😀'));
    // Cut inside "retry:", after the first byte of "é" (the next chunk is its last byte plus ASCII
    // only, so it decodes to as many characters as it has bytes) and inside the 4 bytes of "😀".
    const cuts = [3, afterI, cafe + 1, smiley + 2, bytes.length];
    const url = await hostileHttpServer((request, response) => {
      if (request.method === 'GET') {
        response.writeHead(405).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      void (async () => {
        let from = 0;
        for (const to of cuts) {
          response.write(bytes.subarray(from, to));
          from = to;
          // Separate TCP writes, so the client reads separate chunks.
          await new Promise((resolve) => setTimeout(resolve, 30));
        }
        response.end();
      })();
    });
    const client = newClient();
    const connection = await connectTransport({
      serverName: 'split',
      config: { httpUrl: url, protocolVersion: PROTOCOL_VERSION },
      client,
      timeout: 60_000,
    });
    connections.push(connection);
    const result = await client.callTool({ name: 'split', arguments: {} }, { timeout: 60_000 });
    expect(firstText(result)).toBe(text);
  });

  it('`retry: 99999999999` on the GET stream does not turn into a reconnect loop', async () => {
    let gets = 0;
    const url = await hostileHttpServer((request, response) => {
      if (request.method === 'GET') {
        gets += 1;
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end('retry: 99999999999\nid: 1\n\n');
        return;
      }
      response.writeHead(404).end();
    });
    const client = newClient();
    const connection = await connectTransport({
      serverName: 'retry',
      config: { httpUrl: url, protocolVersion: PROTOCOL_VERSION },
      client,
      timeout: 60_000,
    });
    connections.push(connection);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    console.info(`retry: 99999999999 → ${gets} GET stream(s) opened in 3 s (first one included)`);
    expect(gets).toBeGreaterThanOrEqual(1);
    expect(gets).toBeLessThanOrEqual(3);
  });
});

/** A raw JSON-RPC stdio server whose tool `big` answers with a text of `bytes` characters. */
const BIG_LINE_SERVER = join(folder, 'big-line-server.mjs');
writeFileSync(
  BIG_LINE_SERVER,
  `import { createInterface } from 'node:readline';
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.id === undefined) continue;
  if (message.method === 'initialize') {
    send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'big', version: '1' } } });
  } else if (message.method === 'tools/call') {
    send({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: 'z'.repeat(message.params.arguments.bytes) }] } });
  } else {
    send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
}
`,
);

async function connectBigLineServer(serverName: string): Promise<ReturnType<typeof newClient>> {
  const client = newClient();
  const connection = await connectTransport({
    serverName,
    config: { command: process.execPath, args: [BIG_LINE_SERVER], protocolVersion: PROTOCOL_VERSION },
    client,
    timeout: 60_000,
    closeGraceMs: 300,
  });
  connections.push(connection);
  return client;
}

describe('stdio messages are bounded and read in linear time', () => {
  it('delivers a 12 MB message with the default limit', async () => {
    const client = await connectBigLineServer('images');
    const result = await client.callTool({ name: 'big', arguments: { bytes: 12_000_000 } }, { timeout: 60_000 });
    expect(firstText(result)).toHaveLength(12_000_000);
  });

  it('fails a 40 MB message with MESSAGE_TOO_LARGE naming the server and the limit, not "Connection closed"', async () => {
    const client = await connectBigLineServer('flooder');
    const rss = sampleProcess();
    await expect(client.callTool({ name: 'big', arguments: { bytes: 40_000_000 } }, { timeout: 60_000 })).rejects.toThrow(
      /MCP server 'flooder' sent a message \(one line of stdout\) larger than the limit of 32 MiB \(maxMessageBytes = 33554432\)/,
    );
    console.info(`40 MB stdio line: peak RSS ${rss.stop().peakRssMb} MB`);
  });

  it('parses a 7 MB message in roughly linear time', async () => {
    const client = await connectBigLineServer('linear');
    const timed = async (bytes: number): Promise<number> => {
      const started = performance.now();
      const result = await client.callTool({ name: 'big', arguments: { bytes } }, { timeout: 60_000 });
      expect(firstText(result)).toHaveLength(bytes);
      return performance.now() - started;
    };
    await timed(100_000);
    const small = await timed(700_000);
    const large = await timed(7_000_000);
    console.info(`stdio: 0.7 MB message in ${small.toFixed(0)} ms, 7 MB in ${large.toFixed(0)} ms (ratio ${(large / small).toFixed(1)})`);
    // Quadratic reading would make the ratio about 100; linear about 10. Loose bound: shared CPUs.
    expect(large).toBeLessThan(10_000);
  });
});
