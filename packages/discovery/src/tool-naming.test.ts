import { HOSTILE_TOOLS } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import type { McpServerManager } from './mcp-server-manager.js';
import { McpServerStatus } from './server-status.js';
import { closingManagers, firstText, stdioFixture } from './test-support.js';

const createManager = closingManagers();

async function whoAnswers(manager: McpServerManager, registeredName: string): Promise<string | undefined> {
  const result = await manager.callTool(registeredName, { names: ['TOOLHOST_WHO'] });
  return (JSON.parse(firstText(result)) as Record<string, string>).TOOLHOST_WHO;
}

describe('deterministic tool names', () => {
  it('the server listed first keeps the bare name even when it answers last', async () => {
    const manager = createManager({
      servers: [
        // Listed first, but answers seconds after the other one (8 s: a busy machine can take a few
        // seconds to start the other).
        { name: 'first', config: stdioFixture('basic', { startupDelayMs: 8000 }, { env: { TOOLHOST_WHO: 'first' } }) },
        { name: 'second', config: stdioFixture('basic', {}, { env: { TOOLHOST_WHO: 'second' } }) },
      ],
    });
    const connectedOrder: string[] = [];
    manager.on('server-status-change', ({ serverName, status }) => {
      if (status === McpServerStatus.CONNECTED) connectedOrder.push(serverName);
    });
    await manager.discoverAll();

    expect(connectedOrder).toEqual(['second', 'first']);
    expect(manager.tools.get('env')).toMatchObject({ serverName: 'first', originalName: 'env' });
    expect(manager.tools.get('second__env')).toMatchObject({ serverName: 'second', originalName: 'env' });
    expect(manager.prompts.get('poem-writer')?.serverName).toBe('first');
    expect(manager.prompts.get('second__poem-writer')?.serverName).toBe('second');
    expect(await whoAnswers(manager, 'env')).toBe('first');
    expect(await whoAnswers(manager, 'second__env')).toBe('second');
  });

  it('reserved host names are never taken by MCP tools', async () => {
    const manager = createManager({
      reservedToolNames: ['echo'],
      servers: [{ name: 'basic', config: stdioFixture('basic') }],
    });
    await manager.discoverAll();
    expect(manager.tools.has('echo')).toBe(false);
    expect(manager.tools.get('basic__echo')?.originalName).toBe('echo');
  });

  it('registers every hostile tool under a unique valid name and calls it by its original name', async () => {
    const manager = createManager({
      servers: [
        { name: 'hostile', config: stdioFixture('hostile') },
        { name: 'hostile 2', config: stdioFixture('hostile') },
      ],
    });
    await manager.discoverAll();
    const registered = manager.tools.list();
    expect(registered).toHaveLength(HOSTILE_TOOLS.length * 2);
    const names = registered.map((entry) => entry.registeredName);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name).toMatch(/^[a-zA-Z0-9_.-]{1,63}$/);
    }
    for (const entry of registered) {
      const result = await manager.callTool(entry.registeredName, { probe: 1 });
      expect(JSON.parse(firstText(result))).toEqual({ name: entry.originalName, arguments: { probe: 1 } });
    }
    // Every tool of the second server is there, with its original name kept for the call.
    expect(
      manager.tools
        .listByServer('hostile 2')
        .map((entry) => entry.originalName)
        .sort(),
    ).toEqual(HOSTILE_TOOLS.map((tool) => tool.name).sort());
  });
});
