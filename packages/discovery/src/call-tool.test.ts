import { beforeAll, describe, expect, it } from 'vitest';
import { McpServerManager } from './mcp-server-manager.js';
import { firstText, stdioFixture } from './test-support.js';

let manager: McpServerManager;
beforeAll(async () => {
  manager = new McpServerManager({ servers: [{ name: 'slow', config: stdioFixture('slow', { progressIntervalMs: 50 }) }] });
  await manager.discoverAll();
  return () => manager.close();
});

async function stats(): Promise<{ started: number; completed: number; cancelled: number }> {
  return JSON.parse(firstText(await manager.callTool('slow-stats', {}))) as {
    started: number;
    completed: number;
    cancelled: number;
  };
}

describe('callTool', () => {
  it('passes the abort signal to the SDK so the server receives notifications/cancelled', async () => {
    const before = await stats();
    const controller = new AbortController();
    const call = manager.callTool('slow', { delayMs: 5000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('user pressed escape')), 200);
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED', serverName: 'slow' });
    await expect.poll(async () => (await stats()).cancelled).toBe(before.cancelled + 1);
  });

  it('reports progress, and progress resets the timeout up to maxTotalTimeout', async () => {
    const progress: number[] = [];
    // Progress comes every 50 ms: a timeout of 1.5 s between two of them holds on a busy machine.
    const result = await manager.callTool(
      'slow',
      { delayMs: 4000 },
      { timeout: 1500, resetTimeoutOnProgress: true, maxTotalTimeout: 60_000, onprogress: (p) => progress.push(p.progress) },
    );
    // Without the reset, a 1.5 s timeout could not survive a 4 s call.
    expect(firstText(result)).toBeTruthy();
    expect(progress.length).toBeGreaterThan(2);

    // maxTotalTimeout ends it however much progress comes (ignored, the call would end after 20 s).
    await expect(
      manager.callTool('slow', { delayMs: 20_000 }, { timeout: 1500, resetTimeoutOnProgress: true, maxTotalTimeout: 3000 }),
    ).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', serverName: 'slow' });
  });

  it('times out without progress reset', async () => {
    await expect(manager.callTool('slow', { delayMs: 3000 }, { timeout: 250 })).rejects.toMatchObject({
      code: 'REQUEST_TIMEOUT',
    });
  });
});
