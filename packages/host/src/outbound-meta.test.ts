// What the host adds to the `_meta` of its requests, through the public API against real servers
// on loopback: the W3C trace context from the `traceContext` hook (every revision), the log level
// set with `servers.setLogLevel` (per request on MCP 2026-07-28, `logging/setLevel` before), and
// the `extensions` capability in both directions.
import { fixtureBinPath, startEraHttpFixture, type EraHttpFixture } from '@toolhost-internal/fixtures';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost, type McpToolHostOptions } from './index.js';

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** 2026-07-28 pinned: in auto mode a stdio server silent for 5 s (a busy machine starting it) counts as 2025-era. */
function stdio(era: 'legacy' | 'modern') {
  return {
    command: process.execPath,
    args: [fixtureBinPath('interactive'), `--era=${era}`],
    trust: true,
    ...(era === 'modern' ? { protocolVersion: '2026-07-28' as const } : {}),
  };
}

async function hostWith(
  mcpServers: Record<string, Record<string, unknown>>,
  options: Partial<McpToolHostOptions> = {},
): Promise<McpToolHost> {
  const host = await McpToolHost.create({ ...options, settings: { mcpServers } });
  hosts.push(host);
  await host.discover();
  return host;
}

/**
 * The `_meta` the server's tool saw with a call of its `request-meta` tool (the SDK's server keeps
 * the reserved `io.modelcontextprotocol/*` keys to itself; see {@link wireMeta} for those).
 */
async function metaSeenBy(host: McpToolHost, serverName: string): Promise<Record<string, unknown>> {
  const tool = host.servers.listTools({ serverName }).find((entry) => entry.originalName === 'request-meta');
  const result = await host.callTool({ name: tool?.name ?? 'missing', arguments: {} });
  expect(result.error).toBeUndefined();
  return JSON.parse(result.display) as Record<string, unknown>;
}

/** The `_meta` of the last `tools/call` request on the wire of an HTTP fixture, after `from`. */
async function wireMeta(host: McpToolHost, fixture: EraHttpFixture, serverName: string): Promise<Record<string, unknown>> {
  const from = fixture.requests.length;
  await metaSeenBy(host, serverName);
  const call = fixture.requests.slice(from).find((request) => request.rpcMethods.includes('tools/call'));
  const params = call?.rpcParams?.[call.rpcMethods.indexOf('tools/call')] as { _meta?: Record<string, unknown> } | undefined;
  return params?._meta ?? {};
}

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('outbound _meta', () => {
  let modernHttp: EraHttpFixture;
  beforeAll(async () => {
    modernHttp = await startEraHttpFixture({ behaviour: 'interactive', era: 'modern' });
  });
  afterAll(async () => {
    await modernHttp.close();
  });

  it('sends the trace context the hook gives, on both revisions, read at the time of each request', async () => {
    let traceparent = TRACEPARENT;
    const host = await hostWith(
      { legacy: stdio('legacy'), modern: stdio('modern') },
      { traceContext: () => ({ traceparent, tracestate: 'vendor=abc', baggage: 'user=42' }) },
    );
    for (const server of ['legacy', 'modern']) {
      expect(await metaSeenBy(host, server), server).toMatchObject({
        traceparent: TRACEPARENT,
        tracestate: 'vendor=abc',
        baggage: 'user=42',
      });
    }
    traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00';
    expect((await metaSeenBy(host, 'modern')).traceparent).toBe(traceparent);
  });

  it('sends no trace context when the hook has none, gives a malformed one, or throws; the call still works', async () => {
    const answers: Array<() => unknown> = [
      () => undefined,
      () => ({ traceparent: 'not-a-traceparent' }),
      () => ({ traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }),
      () => ({ traceparent: TRACEPARENT, tracestate: 'bad\nvalue' }),
      () => {
        throw new Error('tracer not ready');
      },
    ];
    let current = 0;
    const host = await hostWith(
      { remote: { httpUrl: modernHttp.url, trust: true } },
      { traceContext: () => answers[current]?.() as never },
    );
    for (current = 0; current < answers.length; current++) {
      const meta = await wireMeta(host, modernHttp, 'remote');
      if (current === 3) {
        expect(meta.traceparent).toBe(TRACEPARENT);
        expect(meta).not.toHaveProperty('tracestate');
      } else {
        expect(meta, `answer ${current}`).not.toHaveProperty('traceparent');
      }
      expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    }
  });

  it('on 2026-07-28 sends the log level with every request instead of logging/setLevel', async () => {
    const host = await hostWith({ remote: { httpUrl: modernHttp.url, trust: true } });
    expect(await wireMeta(host, modernHttp, 'remote')).not.toHaveProperty(['io.modelcontextprotocol/logLevel']);
    const before = modernHttp.requests.length;
    await host.servers.setLogLevel({ serverName: 'remote', level: 'debug' });
    expect((await wireMeta(host, modernHttp, 'remote'))['io.modelcontextprotocol/logLevel']).toBe('debug');
    await host.servers.setLogLevel({ serverName: 'remote', level: 'error' });
    expect((await wireMeta(host, modernHttp, 'remote'))['io.modelcontextprotocol/logLevel']).toBe('error');
    expect(modernHttp.requests.slice(before).flatMap((request) => request.rpcMethods)).not.toContain('logging/setLevel');
  });

  it('on 2025-11-25 sends logging/setLevel and keeps the level out of _meta', async () => {
    const both = await startEraHttpFixture({ behaviour: 'interactive', era: 'both' });
    try {
      const host = await hostWith({ pinned: { httpUrl: both.url, trust: true, protocolVersion: '2025-11-25' } });
      const before = both.requests.length;
      await host.servers.setLogLevel({ serverName: 'pinned', level: 'debug' });
      const sent = both.requests.slice(before);
      expect(sent.flatMap((request) => request.rpcMethods)).toEqual(['logging/setLevel']);
      expect(sent[0]?.rpcParams?.[0]).toMatchObject({ level: 'debug' });
      expect(await wireMeta(host, both, 'pinned')).not.toHaveProperty(['io.modelcontextprotocol/logLevel']);
    } finally {
      await both.close();
    }
  });

  it('declares the host extensions to servers and shows the extensions each server declares', async () => {
    const extensions = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
    const host = await hostWith({ remote: { httpUrl: modernHttp.url, trust: true }, legacy: stdio('legacy') }, { extensions });
    const meta = await wireMeta(host, modernHttp, 'remote');
    expect(meta['io.modelcontextprotocol/clientCapabilities']).toMatchObject({ extensions });
    for (const server of host.servers.status().servers) {
      expect(server.extensions, server.name).toEqual(['com.example/fixture-extension']);
    }
    expect(host.servers.formatStatus()).toContain('Extensions: com.example/fixture-extension');
  });
});
