import { describe, expect, it } from 'vitest';
import { McpServerStatus } from './server-status.js';
import { closingManagers, everythingServer, firstText, stdioFixture } from './test-support.js';

const createManager = closingManagers();

describe('discovery of every page', () => {
  it('reads every page of tools, prompts and resources, and treats MethodNotFound as none', async () => {
    const manager = createManager({
      servers: [{ name: 'pages', config: stdioFixture('paginated', { pages: 4, pageSize: 3 }) }],
    });
    const [snapshot] = await manager.discoverAll();
    expect(snapshot?.status).toBe(McpServerStatus.CONNECTED);
    expect(snapshot?.tools.map((tool) => tool.name)).toEqual(Array.from({ length: 12 }, (_, i) => `tool-${i + 1}`));
    expect(snapshot?.prompts).toHaveLength(12);
    expect(snapshot?.resources).toHaveLength(12);
    // The paginated fixture declares resources but has no resources/templates/list handler (-32601).
    expect(snapshot?.resourceTemplates).toEqual([]);
    expect(firstText(await manager.callTool('tool-12', {}))).toBe('called tool-12');
  });

  it('stops with a typed error on a cursor that does not advance', async () => {
    const manager = createManager({
      servers: [{ name: 'stuck', config: stdioFixture('paginated', { stuckCursor: true }) }],
    });
    const [snapshot] = await manager.discoverAll();
    expect(snapshot?.status).toBe(McpServerStatus.DISCONNECTED);
    expect(snapshot?.lastError?.code).toBe('PAGINATION_CURSOR_REPEATED');
    expect(snapshot?.lastError?.message).toContain("'stuck'");
  });

  it('stops with a typed error after maxPages pages', async () => {
    const manager = createManager({
      maxPages: 2,
      servers: [{ name: 'many', config: stdioFixture('paginated', { pages: 5 }) }],
    });
    const [snapshot] = await manager.discoverAll();
    expect(snapshot?.status).toBe(McpServerStatus.DISCONNECTED);
    expect(snapshot?.lastError?.code).toBe('PAGINATION_LIMIT_EXCEEDED');
  });

  it('discovers @modelcontextprotocol/server-everything over stdio and calls its echo tool', async () => {
    const manager = createManager({ servers: [{ name: 'everything', config: everythingServer() }] });
    const [snapshot] = await manager.discoverAll();
    expect(snapshot?.status, snapshot?.lastError?.message).toBe(McpServerStatus.CONNECTED);
    expect(snapshot?.tools.length).toBeGreaterThan(5);
    expect(snapshot?.prompts.length).toBeGreaterThan(0);
    expect(snapshot?.resources.length).toBeGreaterThan(0);
    expect(snapshot?.resourceTemplates.length).toBeGreaterThan(0);
    expect(snapshot?.instructions?.length ?? 0).toBeGreaterThan(0);
    expect(manager.tools.get('echo')?.serverName).toBe('everything');
    const result = await manager.callTool('echo', { message: 'from toolhost' });
    expect(firstText(result)).toContain('from toolhost');
  });
});
