// Hardening: JSON a server nests far deeper (or makes far larger) than any real definition or
// answer, through McpToolHost against the `deep` stdio fixture (issue 23, item 2). A tool whose
// input schema nests 1,000 levels deep made the SDK's schema check run out of stack; its
// asynchronous retry was thrown from the transport's message callback, which ended the process.
// Now such a definition is left out with its reason before any check recurses into it, and an
// answer, request or notification nested deeper than the host's limit is refused.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { McpServerConfig } from '@toolhost/config';
import { McpToolHost } from './mcp-tool-host.js';
import type { McpToolHostOptions } from './host-options.js';
import type { ServerLogEvent } from './host-events.js';
import { fixtureServer, textOf } from './test-support.js';

/** Errors that escaped to the process: each would have ended a Node process without a test runner. */
const escaped: unknown[] = [];
const record = (error: unknown): void => {
  escaped.push(error);
};
beforeAll(() => {
  process.on('uncaughtException', record);
  process.on('unhandledRejection', record);
});
afterAll(() => {
  process.off('uncaughtException', record);
  process.off('unhandledRejection', record);
});
beforeEach(() => {
  escaped.length = 0;
});
afterEach(() => {
  expect(escaped.map((error) => String(error))).toEqual([]);
});

/** The `deep` fixture over stdio, its values nested `depth` levels deep. */
function deepServer(depth: number, extraArgs: readonly string[] = []): McpServerConfig {
  const entry = fixtureServer('deep', { trust: true, timeout: 30_000 });
  return { ...entry, args: [...(entry.args ?? []), `--depth=${depth}`, ...extraArgs] };
}

async function startHost(config: McpServerConfig, options: Partial<McpToolHostOptions> = {}): Promise<McpToolHost> {
  const host = await McpToolHost.create({ ...options, settings: { mcpServers: { deep: config } } });
  await host.discover();
  return host;
}

const KEPT_TOOLS = ['echo', 'deep-result', 'recursive-output', 'deep-notify'];

function expectDeepDefinitionsLeftOut(host: McpToolHost): void {
  const [server] = host.servers.status().servers;
  expect(server?.status).toBe('CONNECTED');
  expect(server?.lastError).toBeUndefined();
  expect(host.servers.listTools().map((tool) => tool.originalName)).toEqual(KEPT_TOOLS);
  expect(server?.excludedTools).toEqual([
    { serverToolName: 'deep-input', reason: 'tool definition nested more than 256 levels deep (over the maxDefinitionDepth limit)' },
    {
      serverToolName: 'huge-input',
      reason: 'tool definition larger than 1048576 characters of JSON (over the maxDefinitionLength limit)',
    },
    { serverToolName: 'deep-output', reason: 'tool definition nested more than 256 levels deep (over the maxDefinitionDepth limit)' },
  ]);
  // The prompt, resource and template with a deep _meta are left out like other invalid ones.
  expect(host.prompts.list().map((prompt) => prompt.name)).toEqual(['greet']);
  expect(host.resources.list().map((resource) => resource.uri)).toEqual(['fixture://deep/good']);
  expect(host.resources.listTemplates()).toEqual([]);
}

describe('a stdio server whose tool input schema nests 1,000 levels deep (deep fixture)', () => {
  let host: McpToolHost;
  const logs: ServerLogEvent[] = [];

  beforeAll(async () => {
    host = await startHost(deepServer(1000));
    host.on('server-log', (event) => logs.push(event));
  });

  afterAll(async () => {
    await host.close();
  });

  it('survives discovery: the deep and huge tools are left out with their reasons, the server and its other tools stay', async () => {
    expectDeepDefinitionsLeftOut(host);
    const view = host.servers.formatStatus();
    expect(view).toContain('📡 deep (CONNECTED)');
    expect(view).toContain(
      '⚠ Tool "deep-input" left out: tool definition nested more than 256 levels deep (over the maxDefinitionDepth limit)',
    );
    expect(view).toContain('⚠ Tool "huge-input" left out: tool definition larger than 1048576 characters of JSON');
    const echo = await host.callTool({ name: 'echo', arguments: { message: 'still here' } });
    expect(echo.isError).toBe(false);
    expect(JSON.parse(textOf(echo))).toEqual({ name: 'echo', arguments: { message: 'still here' } });
  });

  it('refuses tool, prompt and resource answers nested deeper than maxMessageDepth, naming the server and what was asked', async () => {
    for (const name of ['deep-result', 'recursive-output']) {
      const result = await host.callTool({ name, arguments: {} });
      expect(result.isError, name).toBe(true);
      expect(result.display).toBe(
        `Tool "${name}" of MCP server "deep" failed: the server's answer is nested more than 512 levels deep (over limits.maxMessageDepth), so it was refused`,
      );
    }
    await expect(host.prompts.get({ name: 'greet' })).rejects.toThrow(
      `Error invoking prompt "greet" of MCP server "deep": the server's answer is nested more than 512 levels deep`,
    );
    await expect(host.resources.read({ uri: 'fixture://deep/good' })).rejects.toThrow(
      "Reading resource 'fixture://deep/good' from MCP server 'deep' failed: the server's answer is nested more than 512 levels deep",
    );
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
    expect((await host.callTool({ name: 'echo', arguments: { message: 'after' } })).isError).toBe(false);
  });

  it('drops notifications nested too deep (log message, progress, unknown) and still finishes the call that sent them', async () => {
    const progress: unknown[] = [];
    const off = host.on('tool-call-progress', (event) => progress.push(event));
    try {
      const result = await host.callTool({ name: 'deep-notify', arguments: {} });
      expect(result.isError).toBe(false);
      expect(textOf(result)).toBe('notified');
    } finally {
      off();
    }
    // The server answers after its notifications: every one of them has been read by now.
    expect(logs).toEqual([]);
    expect(progress).toEqual([]);
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
  });
});

describe('the deep fixture on MCP 2026-07-28 (stdio)', () => {
  it('leaves out the same definitions and keeps the server and its other tools', async () => {
    // Pinned: in auto mode a stdio server that has not answered the version probe within 5 s (a busy
    // machine starting it) counts as a 2025-era one.
    const host = await startHost({ ...deepServer(1000, ['--era=modern']), protocolVersion: '2026-07-28' });
    try {
      expect(host.servers.status().servers[0]?.protocolVersion).toBe('2026-07-28');
      expectDeepDefinitionsLeftOut(host);
      const echo = await host.callTool({ name: 'echo', arguments: { message: 'modern' } });
      expect(JSON.parse(textOf(echo))).toEqual({ name: 'echo', arguments: { message: 'modern' } });
      const deep = await host.callTool({ name: 'deep-result', arguments: {} });
      expect(deep.display).toContain('nested more than 512 levels deep');
    } finally {
      await host.close();
    }
  });
});

describe('the deep fixture nested 100,000 levels (past where JSON.stringify runs out of stack)', () => {
  it('keeps the process, the server and its other tools, and refuses the deep answers', async () => {
    const host = await startHost(deepServer(100_000));
    try {
      expectDeepDefinitionsLeftOut(host);
      for (const name of ['deep-result', 'recursive-output']) {
        expect((await host.callTool({ name, arguments: {} })).display).toContain('nested more than 512 levels deep');
      }
      expect(textOf(await host.callTool({ name: 'deep-notify', arguments: {} }))).toBe('notified');
      expect(textOf(await host.callTool({ name: 'echo', arguments: { message: 'deep' } }))).toContain('deep');
    } finally {
      await host.close();
    }
  });

  it('with maxDefinitionDepth raised past what the SDK can check, leaves the tool out as not checkable instead of crashing', async () => {
    // 10,000 levels of schema: 20,000 of JSON, 400 KB, within maxDefinitionLength.
    const host = await startHost(deepServer(10_000), { limits: { maxDefinitionDepth: 1_000_000 } });
    try {
      const [server] = host.servers.status().servers;
      expect(server?.status).toBe('CONNECTED');
      expect(server?.excludedTools.find((tool) => tool.serverToolName === 'deep-input')?.reason).toBe(
        'tool definition could not be checked (the check ran out of stack); lower maxDefinitionDepth',
      );
      expect(host.servers.listTools().map((tool) => tool.originalName)).toContain('echo');
    } finally {
      await host.close();
    }
  });
});
