import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerManagerEvents, McpServerManagerOptions } from './manager-types.js';
import { McpServerManager } from './mcp-server-manager.js';
import { nextEvent, stdioFixture } from './test-support.js';

const managers: McpServerManager[] = [];
function createManager(options: McpServerManagerOptions): McpServerManager {
  const manager = new McpServerManager(options);
  managers.push(manager);
  return manager;
}
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
});

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('list_changed notifications', () => {
  it('coalesces a burst of tool notifications into one refresh and one event saying what changed', async () => {
    const manager = createManager({
      listChangedDebounceMs: 100,
      servers: [
        { name: 'other', config: stdioFixture('basic') },
        { name: 'live', config: stdioFixture('list-changed') },
      ],
    });
    await manager.discoverAll();
    expect(manager.tools.get('dynamic-0')?.serverName).toBe('live');
    const events: McpServerManagerEvents['tools-change'][] = [];
    manager.on('tools-change', (event) => events.push(event));

    // Five generations: the server sends ten tools/list_changed notifications in a row.
    await manager.callTool('change-tools', { count: 5 });
    await nextEvent(manager, 'tools-change');
    await settle(400);

    expect(events).toHaveLength(1);
    expect(events[0]?.added.map((entry) => entry.registeredName)).toEqual(['dynamic-5']);
    expect(events[0]?.removed.map((entry) => entry.registeredName)).toEqual(['dynamic-0']);
    expect(manager.tools.has('dynamic-0')).toBe(false);
    expect(manager.tools.get('dynamic-5')?.originalName).toBe('dynamic-5');
    // The other server's tools and the server's own name priority are untouched.
    expect(manager.tools.get('echo')?.serverName).toBe('other');
    expect(manager.tools.get('live__echo')?.serverName).toBe('live');
    expect(manager.getServer('live')?.tools.map((tool) => tool.name)).toContain('dynamic-5');
  });

  it('refreshes prompts and resources on their notifications', async () => {
    const manager = createManager({ servers: [{ name: 'live', config: stdioFixture('list-changed') }] });
    await manager.discoverAll();
    const prompts = nextEvent(manager, 'prompts-change');
    await manager.callTool('change-prompts', {});
    const promptEvent = await prompts;
    expect(promptEvent.added.map((entry) => entry.registeredName)).toEqual(['dynamic-prompt-1']);
    expect(promptEvent.removed.map((entry) => entry.registeredName)).toEqual(['dynamic-prompt-0']);

    const resources = nextEvent(manager, 'resources-change');
    await manager.callTool('change-resources', { count: 2 });
    const resourceEvent = await resources;
    expect(resourceEvent.added.map((entry) => entry.uri)).toEqual(['fixture://list-changed/dynamic-2']);
    expect(resourceEvent.removed.map((entry) => entry.uri)).toEqual(['fixture://list-changed/dynamic-0']);
    expect(manager.findResource('fixture://list-changed/dynamic-2', 'live')?.serverName).toBe('live');
  });
});

describe('2026-07-28: subscriptions/listen and cache hints', () => {
  it('hears list_changed over subscriptions/listen from a server that speaks only 2026-07-28', async () => {
    // Pinned: in auto mode a stdio server that has not answered the version probe within 5 s (a busy
    // machine starting it) counts as a 2025-era one.
    const fixture = stdioFixture('list-changed', {}, { protocolVersion: '2026-07-28' });
    const manager = createManager({
      listChangedDebounceMs: 50,
      servers: [{ name: 'modern', config: { ...fixture, args: [...(fixture.args ?? []), '--era=modern'] } }],
    });
    await manager.discoverAll();
    expect(manager.getServer('modern')?.protocolVersion).toBe('2026-07-28');
    await manager.callTool('change-tools', {});
    await nextEvent(manager, 'tools-change');
    expect(manager.tools.has('dynamic-1')).toBe(true);
    expect(manager.tools.has('dynamic-0')).toBe(false);
  });

  it('reads a list again when its ttlMs runs out, even without a notification; never without a hint', async () => {
    // Pinned, as above.
    const fixture = stdioFixture('list-changed', {}, { protocolVersion: '2026-07-28' });
    const silent = (ttl: number) => ({
      ...fixture,
      args: [...(fixture.args ?? []), '--era=modern', '--silent-changes', `--list-ttl-ms=${ttl}`],
    });
    const manager = createManager({
      servers: [
        { name: 'hinted', config: silent(1_000) },
        { name: 'unhinted', config: silent(0) },
      ],
    });
    await manager.discoverAll();
    await manager.callTool('change-tools', {});
    await manager.callTool('unhinted__change-tools', {});
    await expect.poll(() => manager.getServer('hinted')?.tools.map((tool) => tool.name)).toContain('dynamic-1');
    expect(manager.getServer('unhinted')?.tools.map((tool) => tool.name)).toContain('dynamic-0');
  });
});
