import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

/**
 * A call nobody watches the progress of is sent straight on the transport (not through the
 * SDK's request machinery); it must time out, cancel and drop a late answer exactly as the SDK
 * would, on both protocol eras.
 */
describe.each(['legacy', 'modern'] as const)('a tool call without a progress listener (%s era, stdio)', (era) => {
  // The entry timeout also bounds connecting: 10 s, which a busy machine starting the server stays
  // under. 2026-07-28 pinned: in auto mode a stdio server that has not answered the version probe
  // within 5 s counts as a 2025-era one.
  const entry = {
    command: process.execPath,
    args: [fixtureBinPath('slow'), `--era=${era}`],
    trust: true,
    timeout: 10_000,
    ...(era === 'modern' ? { protocolVersion: '2026-07-28' as const } : {}),
  };

  async function cancelledCount(host: McpToolHost): Promise<number> {
    const stats = await host.callTool({ name: 'slow-stats', arguments: {} });
    return (stats.structuredContent as { cancelled: number }).cancelled;
  }

  it('fails with REQUEST_TIMEOUT at the entry timeout, tells the server to cancel, and the connection keeps working', async () => {
    const host = await McpToolHost.create({ settings: { mcpServers: { slow: entry } } });
    const errors: string[] = [];
    host.on('warning', (warning) => errors.push(warning.message));
    try {
      await host.discover();
      const status = host.servers.status().servers[0];
      expect(status?.protocolVersion, status?.lastError).toBe(era === 'legacy' ? '2025-11-25' : '2026-07-28');
      const started = Date.now();
      const result = await host.callTool({ name: 'slow', arguments: { delayMs: 60_000 } });
      expect(result.error?.code).toBe('REQUEST_TIMEOUT');
      expect(result.toolCall.status).toBe('FAILED');
      expect(result.error?.message).toContain('"slow"');
      // Well before the 60 s the server would take: the timeout ended the call.
      expect(Date.now() - started).toBeLessThan(30_000);
      await expect.poll(() => cancelledCount(host)).toBe(1);
      // The server's late "cancelled" answer was dropped; the next call gets its own answer.
      const next = await host.callTool({ name: 'slow', arguments: { delayMs: 10 } });
      expect(next.isError).toBe(false);
      expect(next.parts).toEqual([{ type: 'text', text: 'done after 10 ms with 0 progress notifications' }]);
      expect(errors).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it('an abort ends the call as CANCELLED and the server is told', async () => {
    const host = await McpToolHost.create({ settings: { mcpServers: { slow: { ...entry, timeout: 60_000 } } } });
    try {
      await host.discover();
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('user pressed Esc')), 100);
      const result = await host.callTool({ name: 'slow', arguments: { delayMs: 20_000 } }, { signal: controller.signal });
      expect(result.error?.code).toBe('CANCELLED');
      expect(result.toolCall.status).toBe('CANCELLED');
      await expect.poll(() => cancelledCount(host)).toBe(1);
    } finally {
      await host.close();
    }
  });

  it('a call in flight when the host closes ends at once instead of waiting for its timeout', async () => {
    const host = await McpToolHost.create({ settings: { mcpServers: { slow: { ...entry, timeout: 60_000 } } } });
    await host.discover();
    const started = Date.now();
    const pending = host.callTool({ name: 'slow', arguments: { delayMs: 60_000 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await host.close();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.toolCall.status).not.toBe('SUCCEEDED');
    // Not at the end of the 60 s timeout (nor of the 60 s call).
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe('a server that does not finish connecting within its timeout', () => {
  it('is reported once, with the timeout and what to do', async () => {
    const host = await McpToolHost.create({
      settings: {
        mcpServers: { late: { command: process.execPath, args: [fixtureBinPath('basic'), '--startup-delay-ms=5000'], timeout: 200 } },
      },
    });
    try {
      await host.discover();
      const status = host.servers.status().servers[0];
      expect(status?.status).toBe('DISCONNECTED');
      expect(status?.lastError).toBe(
        "MCP server 'late' did not finish connecting and discovery within 200 ms; check that it starts, or raise the entry's timeout.",
      );
    } finally {
      await host.close();
    }
  });
});
