// Per-call `_meta` and HTTP headers, and the host's tool-call interceptors, through the public API
// against real servers on loopback: an HTTP fixture records each request's headers (and, on MCP
// 2026-07-28, its params), stdio fixtures run as child processes.
import {
  fixtureBinPath,
  startEraHttpFixture,
  startHttpFixture,
  type EraHttpFixture,
  type HttpFixture,
  type RecordedRequest,
} from '@toolhost-internal/fixtures';
import type { ConfirmationRequest } from '@toolhost/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost, type McpToolHostOptions } from './index.js';

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function hostWith(
  mcpServers: Record<string, Record<string, unknown>>,
  options: Partial<McpToolHostOptions> = {},
): Promise<McpToolHost> {
  const host = await McpToolHost.create({ ...options, settings: { mcpServers } });
  hosts.push(host);
  await host.discover();
  return host;
}

function stdio(behaviour: Parameters<typeof fixtureBinPath>[0], ...args: string[]) {
  return { command: process.execPath, args: [fixtureBinPath(behaviour), ...args], trust: true };
}

function toolName(host: McpToolHost, serverName: string, originalName: string): string {
  return host.servers.listTools({ serverName }).find((tool) => tool.originalName === originalName)?.name ?? 'missing';
}

/** The `tools/call` requests recorded after `from`. */
function toolCalls(requests: readonly RecordedRequest[], from: number): RecordedRequest[] {
  return requests.slice(from).filter((request) => request.rpcMethods.includes('tools/call'));
}

function wireMetaOf(request: RecordedRequest | undefined): Record<string, unknown> {
  const params = request?.rpcParams?.[request.rpcMethods.indexOf('tools/call')] as { _meta?: Record<string, unknown> } | undefined;
  return params?._meta ?? {};
}

describe('per-call meta and headers', () => {
  let modern: EraHttpFixture;
  let legacy: HttpFixture;
  beforeAll(async () => {
    [modern, legacy] = await Promise.all([
      startEraHttpFixture({ behaviour: 'interactive', era: 'modern' }),
      startHttpFixture({ behaviour: 'basic' }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([modern.close(), legacy.close()]);
  });

  it('sends the meta and headers of one call (a per-user token replacing the entry token) on that call only', async () => {
    const host = await hostWith({ remote: { httpUrl: modern.url, trust: true, headers: { Authorization: 'Bearer entry-token' } } });
    const name = toolName(host, 'remote', 'request-meta');
    const from = modern.requests.length;
    const first = await host.callTool(
      { name, arguments: {} },
      {
        meta: { 'example.com/user': 'alice' },
        headers: { 'X-User': 'alice', Authorization: 'Bearer alice-token' },
        allowAuthorizationHeader: true,
      },
    );
    expect(first.error).toBeUndefined();
    expect(JSON.parse(first.display)).toMatchObject({ 'example.com/user': 'alice' });
    const second = await host.callTool({ name, arguments: {} });
    expect(second.error).toBeUndefined();
    expect(JSON.parse(second.display)).not.toHaveProperty('example.com/user');

    const [withExtras, without] = toolCalls(modern.requests, from);
    expect(withExtras?.headers).toMatchObject({ 'x-user': 'alice', authorization: 'Bearer alice-token' });
    expect(Object.keys(withExtras?.headers ?? {}).filter((header) => header.startsWith('x-toolhost'))).toEqual([]);
    expect(wireMetaOf(withExtras)).toMatchObject({ 'example.com/user': 'alice' });
    // The SDK's own per-request envelope is still there, next to the per-call entry.
    expect(Object.keys(wireMetaOf(withExtras)).some((key) => key.startsWith('io.modelcontextprotocol/'))).toBe(true);
    expect(without?.headers['x-user']).toBeUndefined();
    expect(without?.headers.authorization).toBe('Bearer entry-token');
    expect(wireMetaOf(without)).not.toHaveProperty('example.com/user');
  });

  it('sends per-call headers on a 2025-era Streamable HTTP session too, and refuses Authorization unless allowed', async () => {
    const host = await hostWith({ remote: { httpUrl: legacy.url, trust: true } });
    const name = toolName(host, 'remote', 'echo');
    const from = legacy.requests.length;
    const result = await host.callTool({ name, arguments: { message: 'hi' } }, { headers: { 'X-Tenant': 'acme' } });
    expect(result.display).toBe('hi');
    await host.callTool({ name, arguments: { message: 'again' } });
    const [withHeader, without] = toolCalls(legacy.requests, from);
    expect(withHeader?.headers['x-tenant']).toBe('acme');
    expect(without?.headers['x-tenant']).toBeUndefined();

    const before = legacy.requests.length;
    const refused = await host.callTool({ name, arguments: { message: 'x' } }, { headers: { Authorization: 'Bearer user' } });
    expect(refused.error?.code).toBe('INVALID_CALL_OPTIONS');
    expect(refused.error?.message).toContain('allowAuthorizationHeader');
    expect(refused.error?.message).toContain('"remote"');
    expect(toolCalls(legacy.requests, before)).toEqual([]);
  });

  it('refuses malformed or reserved headers and reserved meta keys before anything is sent', async () => {
    const host = await hostWith({ remote: { httpUrl: legacy.url, trust: true } });
    const name = toolName(host, 'remote', 'echo');
    const before = legacy.requests.length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ headers: { 'X-Evil': 'a\r\nX-Injected: 1' } }, 'no line breaks'],
      [{ headers: { 'Bad Name': 'x' } }, 'not a valid HTTP header name'],
      [{ headers: { 'Mcp-Session-Id': 'stolen' } }, 'set by the transport'],
      [{ headers: { 'Content-Type': 'text/plain' } }, 'set by the transport'],
      [{ headers: { 'x-toolhost-per-call-authorization': 'Bearer sneaky' } }, 'set by the transport'],
      [{ meta: { progressToken: 7 } }, '"progressToken"'],
      [{ meta: { traceparent: '00-x' } }, 'traceContext'],
      [{ meta: { 'io.modelcontextprotocol/logLevel': 'debug' } }, '"io.modelcontextprotocol/logLevel"'],
    ];
    for (const [options, expected] of cases) {
      const result = await host.callTool({ name, arguments: { message: 'x' } }, options);
      expect(result.error?.code, JSON.stringify(options)).toBe('INVALID_CALL_OPTIONS');
      expect(result.error?.message).toContain(expected);
      expect(result.toolCall.status).toBe('FAILED');
    }
    expect(toolCalls(legacy.requests, before)).toEqual([]);
  });

  it('sends per-call meta to a stdio server, and refuses per-call headers there naming the transport', async () => {
    const host = await hostWith({ local: stdio('interactive', '--era=legacy') });
    const name = toolName(host, 'local', 'request-meta');
    const withMeta = await host.callTool({ name, arguments: {} }, { meta: { requestUser: 'bob' } });
    expect(JSON.parse(withMeta.display)).toMatchObject({ requestUser: 'bob' });
    const refused = await host.callTool({ name, arguments: {} }, { headers: { 'X-User': 'bob' } });
    expect(refused.error?.code).toBe('INVALID_CALL_OPTIONS');
    expect(refused.error?.message).toContain('a stdio server');
    expect(refused.error?.message).toContain('"local"');
  });
});

describe('tool-call interceptors', () => {
  let http: HttpFixture;
  beforeAll(async () => {
    http = await startHttpFixture({ behaviour: 'basic' });
  });
  afterAll(async () => {
    await http.close();
  });

  it('runs before-hooks in order before the confirmation, which sees the arguments the server gets; after-hooks change the result', async () => {
    const order: string[] = [];
    const asked: ConfirmationRequest[] = [];
    const host = await hostWith(
      { basic: { ...stdio('basic'), trust: false } },
      {
        ui: {
          confirm: async (request) => {
            asked.push(request);
            order.push('confirm');
            return 'proceed_once';
          },
        },
        interceptors: [
          {
            name: 'upper',
            before: (call) => {
              order.push(`upper:${String(call.arguments.message)}`);
              return { arguments: { message: String(call.arguments.message).toUpperCase() } };
            },
            after: (_call, result) => {
              order.push('upper-after');
              return { ...result, content: [{ type: 'text', text: `[${(result.content[0] as { text: string }).text}]` }] };
            },
          },
          {
            name: 'suffix',
            before: (call) => {
              order.push(`suffix:${String(call.arguments.message)}`);
              return { arguments: { message: `${String(call.arguments.message)}!` } };
            },
            after: (call, result) => {
              order.push(`suffix-after:${(result.content[0] as { text: string }).text}:${String(call.arguments.message)}`);
            },
          },
        ],
      },
    );
    const result = await host.callTool({ name: toolName(host, 'basic', 'echo'), arguments: { message: 'hi' } });
    expect(result.error).toBeUndefined();
    expect(result.display).toBe('[HI!]');
    expect(asked[0]?.arguments).toEqual({ message: 'HI!' });
    expect(order).toEqual(['upper:hi', 'suffix:HI', 'confirm', 'upper-after', 'suffix-after:[HI!]:HI!']);
  });

  it('lets a before-hook add a per-user Authorization header for HTTP servers', async () => {
    const host = await hostWith(
      { remote: { httpUrl: http.url, trust: true } },
      { interceptors: [{ before: () => ({ headers: { Authorization: 'Bearer from-hook' }, allowAuthorizationHeader: true }) }] },
    );
    const from = http.requests.length;
    const result = await host.callTool({ name: toolName(host, 'remote', 'echo'), arguments: { message: 'x' } });
    expect(result.error).toBeUndefined();
    expect(toolCalls(http.requests, from)[0]?.headers.authorization).toBe('Bearer from-hook');
  });

  it('fails the call with INTERCEPTOR_FAILED naming the interceptor when a before-hook refuses; the server is not called', async () => {
    let laterRan = false;
    const host = await hostWith(
      { remote: { httpUrl: http.url, trust: true } },
      {
        interceptors: [
          {
            name: 'quota',
            before: () => {
              throw new Error('user alice is over quota');
            },
          },
          { before: () => void (laterRan = true) },
        ],
      },
    );
    const from = http.requests.length;
    const result = await host.callTool({ name: toolName(host, 'remote', 'echo'), arguments: { message: 'x' } });
    expect(result.error?.code).toBe('INTERCEPTOR_FAILED');
    expect(result.error?.message).toContain('interceptor "quota" (before)');
    expect(result.error?.message).toContain('user alice is over quota');
    expect(result.isError).toBe(true);
    expect(laterRan).toBe(false);
    expect(toolCalls(http.requests, from)).toEqual([]);
  });

  it('fails the call with INTERCEPTOR_FAILED when an after-hook throws, naming it by position when it has no name', async () => {
    const host = await hostWith(
      { basic: stdio('basic') },
      {
        interceptors: [
          {},
          {
            after: async () => {
              throw new Error('audit log unavailable');
            },
          },
        ],
      },
    );
    const result = await host.callTool({ name: toolName(host, 'basic', 'echo'), arguments: { message: 'x' } });
    expect(result.error?.code).toBe('INTERCEPTOR_FAILED');
    expect(result.error?.message).toContain('interceptor #2 (after)');
    expect(result.error?.message).toContain('audit log unavailable');
  });

  it('validates the arguments a before-hook produced against the input schema', async () => {
    const host = await hostWith({ basic: stdio('basic') }, { interceptors: [{ before: () => ({ arguments: { message: 42 } }) }] });
    const result = await host.callTool({ name: toolName(host, 'basic', 'echo'), arguments: { message: 'x' } });
    expect(result.error?.code).toBe('INVALID_TOOL_ARGUMENTS');
  });
});
