// Load and recovery through McpToolHost against real stdio servers: 50 calls at once on one
// server, and a server that dies in the middle of a call (the call fails at once, naming the
// server; the host reconnects and the next call works). The figures are logged for the record;
// the assertions bound them loosely (no timed goals here: see `pnpm bench`).
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

function stdio(behaviour: 'basic' | 'crash') {
  return { command: process.execPath, args: [fixtureBinPath(behaviour)], trust: true, timeout: 60_000 };
}

describe('load and recovery', () => {
  it('answers 50 concurrent calls on one server, each with its own result', async () => {
    const host = await McpToolHost.create({ settings: { mcpServers: { basic: stdio('basic') } } });
    hosts.push(host);
    await host.discover();
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, index) => host.callTool({ name: 'echo', arguments: { message: `call ${index}` } })),
    );
    const elapsed = performance.now() - started;
    console.info(`50 concurrent calls on one stdio server: ${elapsed.toFixed(0)} ms`);
    expect(results.map((result) => result.error)).toEqual(Array.from({ length: 50 }, () => undefined));
    expect(results.map((result) => result.parts)).toEqual(
      Array.from({ length: 50 }, (_, index) => [{ type: 'text', text: `call ${index}` }]),
    );
    // No call waits for its 60 s timeout.
    expect(elapsed).toBeLessThan(30_000);
  });

  it('fails a call whose server dies at once, naming the server, then reconnects and the next call works', async () => {
    const host = await McpToolHost.create({
      settings: { mcpServers: { fragile: stdio('crash') } },
      reconnect: { initialDelayMs: 100, maxDelayMs: 1_000, maxAttempts: 5 },
    });
    hosts.push(host);
    await host.discover();
    const killed = performance.now();
    const crashed = await host.callTool({ name: 'crash', arguments: {} });
    const failedAfter = performance.now() - killed;
    expect(crashed.error?.message).toContain('MCP server "fragile"');
    // At once, not at the end of the call's 60 s timeout.
    expect(failedAfter).toBeLessThan(30_000);
    await expect.poll(() => host.servers.status().servers[0]?.status, { interval: 20 }).toBe('CONNECTED');
    const recovered = performance.now() - killed;
    console.info(
      `server killed mid-call: the call failed after ${failedAfter.toFixed(0)} ms, connected again after ${recovered.toFixed(0)} ms`,
    );
    const next = await host.callTool({ name: 'echo', arguments: { message: 'back' } });
    expect(next.error).toBeUndefined();
    expect(next.parts).toEqual([{ type: 'text', text: 'back' }]);
  });
});
