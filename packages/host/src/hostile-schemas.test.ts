// Hardening: server-supplied schemas that would freeze the host (ReDoS) or drop a whole server
// (one malformed tool definition), through McpToolHost against the `malformed` stdio fixture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import type { ToolCallResult } from './tool-call/run-tool-call.js';
import { fixtureServer } from './test-support.js';

/** The argument that makes a backtracking engine take ~2^30 steps on `(a+)+$` (about a minute). */
const EVIL_TEXT = `${'a'.repeat(30)}!`;

function textOf(result: ToolCallResult): string {
  return result.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

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
    expect(elapsed).toBeLessThan(1000);
    expect(timerLateness).toBeLessThan(500);
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
