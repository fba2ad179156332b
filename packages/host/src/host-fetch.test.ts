// The host's own `fetch` (McpToolHostOptions.fetch), through the public API against a real
// Streamable HTTP server on loopback: every request to the server goes through it.
import { startHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

let server: HttpFixture;
const hosts: McpToolHost[] = [];

beforeEach(async () => {
  server = await startHttpFixture({ behaviour: 'basic' });
});
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await server.close();
});

describe('a fetch the host supplies', () => {
  it('sends every request to a remote server through the host fetch, with the entry headers added', async () => {
    const seen: { method: string; url: string }[] = [];
    const host = await McpToolHost.create({
      settings: { mcpServers: { remote: { httpUrl: server.url, headers: { 'x-tenant': 'acme' }, trust: true } } },
      fetch: (input, init) => {
        seen.push({ method: init?.method ?? 'GET', url: String(input) });
        return globalThis.fetch(input, init);
      },
    });
    hosts.push(host);
    await host.discover();
    const result = await host.callTool({ name: 'echo', arguments: { message: 'through the host fetch' } });
    expect(result.error).toBeUndefined();
    expect(result.display).toBe('through the host fetch');
    await host.close();

    expect(seen.length).toBeGreaterThan(0);
    // Every request the server received came through the host's fetch (none bypassed it) ...
    expect(seen.length).toBe(server.requests.length);
    expect(seen.map((request) => request.method)).toEqual(server.requests.map((request) => request.method));
    expect(seen.map((request) => request.method)).toEqual(expect.arrayContaining(['POST', 'DELETE']));
    for (const request of seen) expect(request.url).toBe(server.url);
    // ... with the entry's headers still added.
    for (const request of server.requests) expect(request.headers['x-tenant']).toBe('acme');
    expect(server.requests.flatMap((request) => request.rpcMethods)).toEqual(
      expect.arrayContaining(['initialize', 'tools/list', 'tools/call']),
    );
  });

  it('reaches the server only through the host fetch: one that refuses leaves the server unreached', async () => {
    const host = await McpToolHost.create({
      settings: { mcpServers: { remote: { httpUrl: server.url, trust: true } } },
      fetch: () => Promise.reject(new TypeError('blocked by the host')),
    });
    hosts.push(host);
    await host.discover();
    const [status] = host.servers.status().servers;
    expect(status?.name).toBe('remote');
    expect(status?.status).toBe('DISCONNECTED');
    expect(status?.lastError).toContain("MCP server 'remote'");
    // A network failure during version negotiation is not a protocol mismatch.
    expect(status?.errorCode).not.toBe('PROTOCOL_VERSION_MISMATCH');
    expect(status?.lastError).toContain('blocked by the host');
    expect(status?.lastError).not.toContain('does not speak MCP');
    expect(server.requests).toEqual([]);
  });
});
