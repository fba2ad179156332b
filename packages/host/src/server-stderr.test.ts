// A stdio server's stderr as `server-stderr` events of McpToolHost: every line as it comes,
// escaped, with the server's name; a flood is rate-bounded and reported as a dropped count.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerStderrEvent } from './host-events.js';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer } from './test-support.js';

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function stderrHost(limits: { stderrLinesPerSecond?: number } = {}) {
  const host = await McpToolHost.create({ settings: { mcpServers: { noisy: fixtureServer('stderr', { trust: true }) } }, limits });
  hosts.push(host);
  const events: ServerStderrEvent[] = [];
  host.on('server-stderr', (event) => events.push(event));
  await host.discover();
  return { host, events };
}

const linesOf = (events: readonly ServerStderrEvent[]) => events.flatMap((event) => (event.kind === 'line' ? [event.line] : []));

describe('server-stderr events', () => {
  it('delivers each stderr line of a stdio server with its name, escaped, while it runs', async () => {
    const { host, events } = await stderrHost();
    await expect.poll(() => linesOf(events).filter((line) => line.startsWith('stderr line')).length).toBe(5);
    expect(events[0]).toEqual({ serverName: 'noisy', kind: 'line', line: 'stderr line 1 of 5' });

    const result = await host.callTool({ name: 'write-stderr', arguments: { lines: 2, text: 'evil\u001b]0;title\u0007\u001b[2J' } });
    expect(result.error).toBeUndefined();
    await expect
      .poll(() => linesOf(events).filter((line) => line.startsWith('evil')))
      .toEqual(['evil\\u001b]0;title\\u0007\\u001b[2J 1', 'evil\\u001b]0;title\\u0007\\u001b[2J 2']);
    expect(events.every((event) => event.serverName === 'noisy')).toBe(true);
  });

  it('bounds a flood: at most stderrLinesPerSecond lines a second, the rest reported as a dropped count', async () => {
    const { host, events } = await stderrHost({ stderrLinesPerSecond: 10 });
    await expect.poll(() => linesOf(events).length).toBeGreaterThanOrEqual(5);
    const before = events.length;
    const started = Date.now();
    const result = await host.callTool({ name: 'write-stderr', arguments: { lines: 2000, text: 'flood' } });
    expect(result.error).toBeUndefined();
    // The dropped count comes when the one-second window ends.
    await expect.poll(() => events.slice(before).some((event) => event.kind === 'dropped')).toBe(true);
    await expect
      .poll(() => {
        const after = events.slice(before);
        const dropped = after.reduce((sum, event) => sum + (event.kind === 'dropped' ? event.droppedLines : 0), 0);
        return linesOf(after).filter((line) => line.startsWith('flood')).length + dropped;
      })
      .toBeGreaterThanOrEqual(2000);
    const windows = Math.ceil((Date.now() - started) / 1000) + 1;
    const delivered = linesOf(events.slice(before)).length;
    console.info(`2000 stderr lines at 10/s: ${delivered} delivered, the rest counted as dropped, over ${windows} windows at most`);
    expect(delivered).toBeLessThanOrEqual(10 * windows);
  });
});
