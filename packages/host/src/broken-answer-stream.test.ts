// A Streamable HTTP answer stream that ends before the answer, through the public API: on MCP
// 2026-07-28 the request is re-issued once under a new id (the server stays connected); when the
// re-issued one is lost too the call fails at once with an error naming the server, not after the
// timeout. A loopback proxy in front of a real 2026-07-28 fixture server drops the streams.
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEraHttpFixture, type EraHttpFixture } from '@toolhost-internal/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

interface DroppingProxy {
  readonly url: string;
  /** How many more `tools/call` answer streams to end without the answer. */
  drops: number;
  /** The ids of every `tools/call` the proxy saw, in order. */
  readonly callIds: unknown[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function startDroppingProxy(target: string): Promise<DroppingProxy> {
  const upstream = new URL(target);
  const proxy: DroppingProxy = {
    url: '',
    drops: 0,
    callIds: [],
    close: async () => undefined,
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      let message: { method?: string; id?: unknown } = {};
      try {
        message = JSON.parse(body.toString('utf8')) as typeof message;
      } catch {
        // not JSON: forwarded as is
      }
      if (message.method === 'tools/call') {
        proxy.callIds.push(message.id);
        if (proxy.drops > 0) {
          proxy.drops -= 1;
          // An SSE answer that ends cleanly with no event at all (no id: nothing to resume).
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.end();
          return;
        }
      }
      const forwarded = httpRequest(
        { host: upstream.hostname, port: upstream.port, path: request.url, method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forwarded.on('error', () => response.destroy());
      forwarded.end(body);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

describe('a broken answer stream on MCP 2026-07-28', () => {
  let fixture: EraHttpFixture;
  let proxy: DroppingProxy;
  beforeAll(async () => {
    fixture = await startEraHttpFixture({ behaviour: 'basic', era: 'modern' });
    proxy = await startDroppingProxy(fixture.url);
  });
  afterAll(async () => {
    await proxy.close();
    await fixture.close();
  });

  async function connectedHost(): Promise<McpToolHost> {
    const host = await McpToolHost.create({ settings: { mcpServers: { remote: { httpUrl: proxy.url, trust: true, timeout: 60_000 } } } });
    hosts.push(host);
    await host.discover();
    expect(host.servers.status().servers[0]?.protocolVersion).toBe('2026-07-28');
    return host;
  }

  it('re-issues the request once under a new id, and the call succeeds', async () => {
    const host = await connectedHost();
    proxy.callIds.length = 0;
    proxy.drops = 1;
    const result = await host.callTool({ name: 'echo', arguments: { message: 'again' } });
    expect(result.error).toBeUndefined();
    expect(result.parts).toEqual([{ type: 'text', text: 'again' }]);
    expect(proxy.callIds).toHaveLength(2);
    expect(proxy.callIds[1]).not.toEqual(proxy.callIds[0]);
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
  });

  it('fails the call at once, naming the server, when the re-issued request is lost too; the server stays usable', async () => {
    const host = await connectedHost();
    proxy.callIds.length = 0;
    proxy.drops = 2;
    const started = Date.now();
    const result = await host.callTool({ name: 'echo', arguments: { message: 'lost' } });
    // At once, not at the end of the 60 s timeout.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(result.error?.message).toContain("MCP server 'remote'");
    expect(result.error?.message).toContain('dropped the answer stream of tools/call twice');
    expect(proxy.callIds).toHaveLength(2);
    const next = await host.callTool({ name: 'echo', arguments: { message: 'fine' } });
    expect(next.parts).toEqual([{ type: 'text', text: 'fine' }]);
  });
});
