import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import type { ToolCall } from '@toolhost/contract';
import type { ToolCallProgressEvent } from './host-events.js';
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
    // A 5 s timeout (it also bounds connecting, which a busy machine does slowly), progress every
    // 100 ms, and an 8 s call: seconds apart, whatever the load.
    host = await McpToolHost.create({
      settings: {
        mcpServers: {
          slow: fixtureServer('slow', { trust: true, timeout: 5_000 }),
          basic: fixtureServer('basic', { trust: true }),
        },
      },
      maxTotalCallTimeoutMs: 60_000,
    });
    host.on('tool-call-update', (call) => updates.push(call));
    host.on('tool-call-progress', (event) => progress.push(event));
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
  });

  it('keeps a call alive past its timeout while progress arrives, with live content', async () => {
    progress.length = 0;
    updates.length = 0;
    const result = await host.callTool({ name: 'slow', arguments: { delayMs: 8_000 }, toolCallId: 'long' });
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
      settings: { mcpServers: { slow: fixtureServer('slow', { trust: true, timeout: 5_000 }) } },
      maxTotalCallTimeoutMs: 8_000,
    });
    try {
      await capped.discover();
      // Progress is asked for (and resets the timeout) because someone listens to it.
      capped.on('tool-call-progress', () => undefined);
      const started = Date.now();
      const result = await capped.callTool({ name: 'slow', arguments: { delayMs: 60_000 } });
      expect(result.error?.code).toBe('REQUEST_TIMEOUT');
      expect(result.toolCall.status).toBe('FAILED');
      const elapsed = Date.now() - started;
      // The 8 s cap: past the 5 s timeout (progress reset it), far before the 60 s call's end.
      expect(elapsed).toBeGreaterThanOrEqual(7_900);
      expect(elapsed).toBeLessThan(30_000);
    } finally {
      await capped.close();
    }
  });

  it('cancels a running call: CANCELLED, and the server receives notifications/cancelled', async () => {
    updates.length = 0;
    const controller = new AbortController();
    const unsubscribe = host.on('tool-call-progress', () => controller.abort());
    const result = await host.callTool(
      { name: 'slow', arguments: { delayMs: 5_000 }, toolCallId: 'abort-me' },
      { signal: controller.signal },
    );
    unsubscribe();
    expect(result.error?.code).toBe('CANCELLED');
    expect(updates.map((u) => u.status)).toEqual(expect.arrayContaining(['PENDING', 'EXECUTING', 'CANCELLED']));
    expect(updates.at(-1)?.status).toBe('CANCELLED');
    await expect
      .poll(async () => ((await host.callTool({ name: 'slow-stats', arguments: {} })).structuredContent as { cancelled: number }).cancelled)
      .toBeGreaterThanOrEqual(1);
  });

  it('does not start a call whose signal is already aborted', async () => {
    const result = await host.callTool({ name: 'echo', arguments: { message: 'x' } }, { signal: AbortSignal.abort() });
    expect(result.error?.code).toBe('CANCELLED');
    expect(result.toolCall.status).toBe('CANCELLED');
  });

  it('close() ends every child process, and the host refuses further use', async () => {
    const other = await McpToolHost.create({ settings: { mcpServers: { basic: fixtureServer('basic', { trust: true }) } } });
    await other.discover();
    const part = (await other.callTool({ name: 'cwd', arguments: {} })).parts[0];
    const { pid } = JSON.parse(part?.type === 'text' ? part.text : '{}') as { pid: number };
    expect(isAlive(pid)).toBe(true);
    await other.close();
    await expect.poll(() => isAlive(pid)).toBe(false);
    await expect(other.callTool({ name: 'cwd', arguments: {} })).rejects.toMatchObject({ code: 'CLOSED' });
  });
});
