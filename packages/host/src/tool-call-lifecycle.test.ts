import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import type { ToolCall } from './tool-call.js';
import type { ToolCallProgressEvent } from './ui-hooks.js';
import { fixtureServer } from './test-support.js';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('tool calls: progress, timeout, cancellation, close', () => {
  let host: McpToolHost;
  const updates: ToolCall[] = [];
  const progress: ToolCallProgressEvent[] = [];

  beforeAll(async () => {
    host = await McpToolHost.create({
      settings: {
        mcpServers: {
          slow: fixtureServer('slow', { trust: true, timeout: 2_000 }),
          basic: fixtureServer('basic', { trust: true }),
        },
      },
      ui: { onProgress: (event) => progress.push(event) },
      maxTotalCallTimeoutMs: 10_000,
    });
    host.on('tool-call-update', (call) => updates.push(call));
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
  });

  it('keeps a call alive past its timeout while progress arrives, with live content', async () => {
    progress.length = 0;
    updates.length = 0;
    const result = await host.callTool('slow', { delayMs: 3_000 }, { toolCallId: 'long' });
    expect(result.isError).toBe(false);
    expect(progress.length).toBeGreaterThan(3);
    expect(progress[0]).toMatchObject({ toolCallId: 'long', serverName: 'slow', toolName: 'slow' });
    const live = updates.filter((u) => u.status === 'EXECUTING' && u.liveContent);
    expect(live.length).toBeGreaterThan(3);
    expect(live[0]?.liveContent).toMatch(/^1\/\d+ waited \d+ ms$/);
    expect(updates.at(-1)?.status).toBe('SUCCEEDED');
    expect(updates.at(-1)?.liveContent).toBeUndefined();
  });

  it('stops at the overall cap even while progress arrives', async () => {
    const capped = await McpToolHost.create({
      settings: { mcpServers: { slow: fixtureServer('slow', { trust: true, timeout: 2_000 }) } },
      maxTotalCallTimeoutMs: 3_000,
    });
    try {
      await capped.discover();
      const started = Date.now();
      const result = await capped.callTool('slow', { delayMs: 10_000 });
      expect(result.error?.code).toBe('TOOL_CALL_TIMEOUT');
      expect(result.toolCall.status).toBe('FAILED');
      const elapsed = Date.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(2_900);
      expect(elapsed).toBeLessThan(8_000);
    } finally {
      await capped.close();
    }
  });

  it('cancels a running call: CANCELLED, and the server receives notifications/cancelled', async () => {
    updates.length = 0;
    const controller = new AbortController();
    const unsubscribe = host.on('tool-progress', () => controller.abort());
    const result = await host.callTool('slow', { delayMs: 5_000 }, { signal: controller.signal, toolCallId: 'abort-me' });
    unsubscribe();
    expect(result.error?.code).toBe('TOOL_CALL_CANCELLED');
    expect(updates.map((u) => u.status)).toEqual(expect.arrayContaining(['PENDING', 'EXECUTING', 'CANCELLED']));
    expect(updates.at(-1)?.status).toBe('CANCELLED');
    let stats = { cancelled: 0 };
    for (let attempt = 0; attempt < 50 && stats.cancelled === 0; attempt++) {
      const statsResult = await host.callTool('slow-stats', {});
      stats = statsResult.structuredContent as { cancelled: number };
      if (stats.cancelled === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stats.cancelled).toBeGreaterThanOrEqual(1);
  });

  it('does not start a call whose signal is already aborted', async () => {
    const result = await host.callTool('echo', { message: 'x' }, { signal: AbortSignal.abort() });
    expect(result.error?.code).toBe('TOOL_CALL_CANCELLED');
    expect(result.toolCall.status).toBe('CANCELLED');
  });

  it('close() ends every child process, and the host refuses further use', async () => {
    const other = await McpToolHost.create({ settings: { mcpServers: { basic: fixtureServer('basic', { trust: true }) } } });
    await other.discover();
    const part = (await other.callTool('cwd', {})).parts[0];
    const { pid } = JSON.parse(part?.type === 'text' ? part.text : '{}') as { pid: number };
    expect(isAlive(pid)).toBe(true);
    await other.close();
    for (let attempt = 0; attempt < 50 && isAlive(pid); attempt++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAlive(pid)).toBe(false);
    await expect(other.callTool('cwd', {})).rejects.toMatchObject({ code: 'HOST_CLOSED' });
  });
});
