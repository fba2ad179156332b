// Hardening: server-supplied schemas that would freeze the host (ReDoS) or drop a whole server
// (one malformed tool definition), through McpToolHost against the `malformed` stdio fixture, on
// MCP 2025-11-25 and 2026-07-28, and against a hand-written 2026-07-28 server on loopback HTTP.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEraHttpFixture } from '@toolhost-internal/fixtures';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer, textOf } from './test-support.js';

/** The argument that makes a backtracking engine take ~2^30 steps on `(a+)+$` (about a minute). */
const EVIL_TEXT = `${'a'.repeat(30)}!`;

describe('a server with hostile schemas (malformed fixture)', () => {
  let host: McpToolHost;

  beforeAll(async () => {
    host = await McpToolHost.create({
      settings: { mcpServers: { shady: fixtureServer('malformed', { trust: true, timeout: 20_000 }) } },
    });
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
  });

  it('matches a catastrophic pattern in linear time: the evil argument is refused promptly and the event loop keeps running', async () => {
    const started = performance.now();
    let timerLateness: number | undefined;
    const scheduledAt = performance.now();
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        timerLateness = performance.now() - scheduledAt;
        resolve();
      }, 0),
    );
    const result = await host.callTool({ name: 'redos-pattern', arguments: { text: EVIL_TEXT } });
    const elapsed = performance.now() - started;
    await timer;
    console.info(`redos-pattern call with a ${EVIL_TEXT.length}-character argument: ${elapsed.toFixed(1)} ms`);
    // A backtracking engine takes minutes on this text (each character doubles it: 24 characters
    // already take seconds); the bounds leave room for a loaded machine.
    expect(elapsed).toBeLessThan(30_000);
    expect(timerLateness).toBeLessThan(20_000);
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe('INVALID_TOOL_ARGUMENTS');
    expect(textOf(result)).toMatch(
      /Invalid arguments for tool 'redos-pattern' \(MCP server 'shady'\): params\/text must match pattern "\(a\+\)\+\$"/,
    );
  });

  it('still validates patterns: a non-matching argument is refused, a matching one reaches the server', async () => {
    const refused = await host.callTool({ name: 'redos-pattern', arguments: { text: 'bbb' } });
    expect(refused.error?.code).toBe('INVALID_TOOL_ARGUMENTS');
    expect(textOf(refused)).toMatch(/tool 'redos-pattern' .*params\/text must match pattern/);
    const accepted = await host.callTool({ name: 'redos-pattern', arguments: { text: 'baaa' } });
    expect(accepted.isError).toBe(false);
    expect(JSON.parse(textOf(accepted))).toEqual({ name: 'redos-pattern', arguments: { text: 'baaa' } });
  });

  it('leaves a pattern RE2 cannot run (lookahead) to the server instead of freezing or crashing', async () => {
    const result = await host.callTool({ name: 'lookahead-pattern', arguments: { text: 'forbidden-word' } });
    expect(result.isError).toBe(false);
    expect(JSON.parse(textOf(result))).toMatchObject({ name: 'lookahead-pattern' });
  });

  it('keeps the server connected and its good tools when some tool definitions are invalid', () => {
    const [server] = host.servers.status().servers;
    expect(server?.status).toBe('CONNECTED');
    expect(
      host.servers
        .listTools()
        .map((tool) => tool.originalName)
        .sort(),
    ).toEqual(['echo', 'lookahead-pattern', 'redos-pattern', 'untyped-object']);
    const excluded = server?.excludedTools ?? [];
    expect(excluded.map((tool) => tool.serverToolName)).toEqual([
      'null-schema',
      'string-schema',
      'no-schema',
      'evil\u001b[2J\nname',
      '(tool #9, no name)',
    ]);
    for (const tool of excluded) {
      // eslint-disable-next-line no-control-regex -- no control character may reach a status line
      expect(tool.reason).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
      expect(tool.reason.length).toBeLessThan(300);
    }
    expect(excluded[0]?.reason).toMatch(/^invalid tool definition: inputSchema: /);
    expect(excluded[1]?.reason).toMatch(/inputSchema\.type/);
    const view = host.servers.formatStatus();
    expect(view).toContain('📡 shady (CONNECTED)');
    expect(view).toContain('⚠ Tool "null-schema" left out: invalid tool definition: inputSchema:');
    expect(view).toContain('⚠ Tool "evil\\u001b[2J\\nname" left out:');
    expect(view).not.toContain('\u001b');
    // No raw zod dump anywhere (a zod error message is a JSON array of issues).
    const everything = JSON.stringify(host.servers.status()) + view;
    expect(everything).not.toMatch(/Invalid result for tools\/list|"code":\s*"invalid_type"|"expected":/);
  });

  it('calls a tool whose input schema has no type (an object schema by default)', async () => {
    const result = await host.callTool({ name: 'untyped-object', arguments: { x: 1 } });
    expect(result.isError).toBe(false);
    expect(JSON.parse(textOf(result))).toEqual({ name: 'untyped-object', arguments: { x: 1 } });
    const echo = await host.callTool({ name: 'echo', arguments: { message: 'hi' } });
    expect(JSON.parse(textOf(echo))).toEqual({ name: 'echo', arguments: { message: 'hi' } });
  });

  it('keeps the valid prompts and resources of lists that also hold invalid ones', () => {
    expect(host.prompts.list().map((prompt) => prompt.name)).toEqual(['greet']);
    expect(host.resources.list().map((resource) => resource.uri)).toEqual(['fixture://malformed/good']);
  });
});

describe('the malformed fixture on MCP 2026-07-28 (stdio)', () => {
  let host: McpToolHost;

  beforeAll(async () => {
    // Pinned: in auto mode a stdio server that has not answered the version probe within 5 s (a busy
    // machine starting it) counts as a 2025-era one.
    const entry = fixtureServer('malformed', { trust: true, timeout: 60_000, protocolVersion: '2026-07-28' });
    host = await McpToolHost.create({
      settings: { mcpServers: { shady: { ...entry, args: [...(entry.args ?? []), '--era=modern'] } } },
    });
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
  });

  it('keeps the server, its valid tools, prompts and resources, and reports each invalid tool with its reason', async () => {
    const [server] = host.servers.status().servers;
    expect(server?.lastError).toBeUndefined();
    expect(server?.status).toBe('CONNECTED');
    expect(server?.protocolVersion).toBe('2026-07-28');
    expect(
      host.servers
        .listTools()
        .map((tool) => tool.originalName)
        .sort(),
    ).toEqual(['echo', 'lookahead-pattern', 'redos-pattern', 'untyped-object']);
    expect(server?.excludedTools).toEqual([
      { serverToolName: 'null-schema', reason: 'invalid tool definition: inputSchema: expected object, received null' },
      { serverToolName: 'string-schema', reason: 'invalid tool definition: inputSchema.type: expected "object"' },
      { serverToolName: 'no-schema', reason: 'invalid tool definition: inputSchema: expected object, received undefined' },
      { serverToolName: 'evil\u001b[2J\nname', reason: 'invalid tool definition: inputSchema: expected object, received number' },
      { serverToolName: '(tool #9, no name)', reason: 'invalid tool definition: name: expected string, received undefined' },
    ]);
    expect(host.prompts.list().map((prompt) => prompt.name)).toEqual(['greet']);
    expect(host.resources.list().map((resource) => resource.uri)).toEqual(['fixture://malformed/good']);
    const result = await host.callTool({ name: 'untyped-object', arguments: { x: 1 } });
    expect(result.isError).toBe(false);
    expect(JSON.parse(textOf(result))).toEqual({ name: 'untyped-object', arguments: { x: 1 } });
  });
});

describe('the malformed fixture on MCP 2026-07-28 over HTTP', () => {
  it('keeps the server when a list it declared is answered with HTTP 404 and MethodNotFound (no resource templates)', async () => {
    const fixture = await startEraHttpFixture({ behaviour: 'malformed', era: 'modern' });
    const host = await McpToolHost.create({ settings: { mcpServers: { shady: { httpUrl: fixture.url, trust: true, timeout: 20_000 } } } });
    try {
      await host.discover();
      const [server] = host.servers.status().servers;
      expect(server?.lastError).toBeUndefined();
      expect(server?.status).toBe('CONNECTED');
      expect(server?.protocolVersion).toBe('2026-07-28');
      expect(host.servers.listTools().map((tool) => tool.originalName)).toContain('echo');
      expect(host.resources.list().map((resource) => resource.uri)).toEqual(['fixture://malformed/good']);
    } finally {
      await host.close();
      await fixture.close();
    }
  });
});

/** The tools of {@link startHostile2026Server}: one valid, two invalid, one valid without `type`. */
const HOSTILE_2026_TOOLS: readonly Record<string, unknown>[] = [
  { name: 'good', description: 'A valid tool.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'null-schema', description: 'inputSchema is null.', inputSchema: null },
  { name: 'string-schema', description: 'inputSchema is a string schema.', inputSchema: { type: 'string' } },
  { name: 'x-true', description: 'Valid JSON Schema without type.', inputSchema: { properties: { x: true } } },
];

interface Hostile2026Server {
  readonly url: string;
  /** What `tools/list` answers besides `resultType` (the hostile tools with the cache fields, unless changed). */
  toolsList: Record<string, unknown>;
  /** The JSON-RPC methods received, in order. */
  readonly methods: string[];
  close(): Promise<void>;
}

/**
 * A stateless MCP 2026-07-28 server on loopback Streamable HTTP, written by hand so that it can
 * list tool definitions the SDK's server would refuse to build: answers `server/discover`,
 * `tools/list` ({@link HOSTILE_2026_TOOLS}) and `tools/call` (JSON `{ name, arguments }`).
 */
async function startHostile2026Server(): Promise<Hostile2026Server> {
  const methods: string[] = [];
  const hostile: Hostile2026Server = {
    url: '',
    methods,
    toolsList: { tools: HOSTILE_2026_TOOLS, ttlMs: 0, cacheScope: 'private' },
    close: async () => undefined,
  };
  const answer = (response: ServerResponse, id: unknown, result: Record<string, unknown>) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ jsonrpc: '2.0', id, result: { resultType: 'complete', ...result } }));
  };
  const readBody = async (request: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST') {
        response.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const message = JSON.parse(await readBody(request)) as { id?: unknown; method: string; params?: Record<string, unknown> };
      methods.push(message.method);
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      switch (message.method) {
        case 'server/discover':
          answer(response, message.id, {
            supportedVersions: ['2026-07-28'],
            capabilities: { tools: {} },
            ttlMs: 0,
            cacheScope: 'private',
            _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'hostile-2026', version: '1.0.0' } },
          });
          return;
        case 'tools/list':
          answer(response, message.id, hostile.toolsList);
          return;
        case 'tools/call': {
          const text = JSON.stringify({ name: message.params?.['name'], arguments: message.params?.['arguments'] ?? {} });
          answer(response, message.id, { content: [{ type: 'text', text }] });
          return;
        }
        default:
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }));
      }
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(hostile, {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

describe('a hand-written MCP 2026-07-28 server listing invalid tools (loopback HTTP)', () => {
  let remote: Hostile2026Server;
  let host: McpToolHost;

  beforeAll(async () => {
    remote = await startHostile2026Server();
    host = await McpToolHost.create({ settings: { mcpServers: { hostile: { httpUrl: remote.url, trust: true, timeout: 20_000 } } } });
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
    await remote.close();
  });

  it('keeps the server and the valid tools, {"properties":{"x":true}} included, and reports the invalid ones with their reasons', () => {
    const [server] = host.servers.status().servers;
    expect(server?.lastError).toBeUndefined();
    expect(server?.status).toBe('CONNECTED');
    expect(server?.protocolVersion).toBe('2026-07-28');
    expect(remote.methods).toContain('server/discover');
    expect(remote.methods).not.toContain('initialize');
    expect(host.servers.listTools().map((tool) => tool.originalName)).toEqual(['good', 'x-true']);
    expect(server?.excludedTools).toEqual([
      { serverToolName: 'null-schema', reason: 'invalid tool definition: inputSchema: expected object, received null' },
      { serverToolName: 'string-schema', reason: 'invalid tool definition: inputSchema.type: expected "object"' },
    ]);
    const view = host.servers.formatStatus();
    expect(view).toContain('📡 hostile (CONNECTED)');
    expect(view).toContain('⚠ Tool "null-schema" left out: invalid tool definition: inputSchema: expected object, received null');
    expect(view).toContain('⚠ Tool "string-schema" left out: invalid tool definition: inputSchema.type: expected "object"');
  });

  it('calls the valid tools, the one whose input schema has no type too', async () => {
    const xTrue = await host.callTool({ name: 'x-true', arguments: { x: [1, 2] } });
    expect(xTrue.isError).toBe(false);
    expect(JSON.parse(textOf(xTrue))).toEqual({ name: 'x-true', arguments: { x: [1, 2] } });
    const good = await host.callTool({ name: 'good', arguments: { text: 'hi' } });
    expect(JSON.parse(textOf(good))).toEqual({ name: 'good', arguments: { text: 'hi' } });
  });
});

describe('a hand-written MCP 2026-07-28 server whose tools/list answer is invalid as a whole (loopback HTTP)', () => {
  it('disconnects it with a short error that names the server and the problem, not a raw dump', async () => {
    const remote = await startHostile2026Server();
    // The cache fields are required on 2026-07-28: the SDK refuses the whole answer without them.
    remote.toolsList = { tools: HOSTILE_2026_TOOLS };
    const host = await McpToolHost.create({
      settings: { mcpServers: { hostile: { httpUrl: remote.url, trust: true, timeout: 20_000 } } },
    });
    try {
      await host.discover();
      const [server] = host.servers.status().servers;
      expect(server?.status).toBe('DISCONNECTED');
      expect(server?.lastError).toBe(
        "MCP server 'hostile' sent a tools/list answer that the MCP SDK rejects as a whole, so none of it was loaded: " +
          'ttlMs: expected number, received undefined; cacheScope: expected one of "public"|"private"',
      );
    } finally {
      await host.close();
      await remote.close();
    }
  });
});

describe('a hand-written MCP 2026-07-28 server listing a tool whose input schema nests 1,000 levels deep (loopback HTTP)', () => {
  it('leaves that tool out with its reason and keeps the server and its other tools', async () => {
    const remote = await startHostile2026Server();
    let inputSchema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 1000; level++) inputSchema = { type: 'object', properties: { next: inputSchema } };
    remote.toolsList = { tools: [...HOSTILE_2026_TOOLS, { name: 'deep', inputSchema }], ttlMs: 0, cacheScope: 'private' };
    const host = await McpToolHost.create({ settings: { mcpServers: { hostile: { httpUrl: remote.url, trust: true, timeout: 20_000 } } } });
    try {
      await host.discover();
      const [server] = host.servers.status().servers;
      expect(server?.lastError).toBeUndefined();
      expect(server?.status).toBe('CONNECTED');
      expect(host.servers.listTools().map((tool) => tool.originalName)).toEqual(['good', 'x-true']);
      expect(server?.excludedTools).toContainEqual({
        serverToolName: 'deep',
        reason: 'tool definition nested more than 256 levels deep (over the maxDefinitionDepth limit)',
      });
      const good = await host.callTool({ name: 'good', arguments: { text: 'hi' } });
      expect(JSON.parse(textOf(good))).toEqual({ name: 'good', arguments: { text: 'hi' } });
    } finally {
      await host.close();
      await remote.close();
    }
  });
});
