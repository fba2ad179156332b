// Change notifications on both protocol eras through McpToolHost: on 2025-era connections the
// server sends list_changed unsolicited and resources/subscribe registers a watch; on 2026-07-28
// ones both arrive on subscriptions/listen streams. Real stdio servers (v2 SDK) on both eras.
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

const WATCHED = 'fixture://list-changed/watched';

describe('list changes and resource updates on both eras', () => {
  let host: McpToolHost;
  const updates: string[] = [];

  beforeAll(async () => {
    // 2026-07-28 pinned: in auto mode a stdio server that has not answered the version probe within
    // 5 s (a busy machine starting it) counts as a 2025-era one.
    const entry = (era: string) => ({
      command: process.execPath,
      args: [fixtureBinPath('list-changed'), `--era=${era}`],
      trust: true,
      ...(era === 'modern' ? { protocolVersion: '2026-07-28' as const } : {}),
    });
    host = await McpToolHost.create({ settings: { mcpServers: { modern: entry('modern'), legacy: entry('legacy') } } });
    host.on('resource-update', (event) => updates.push(`${event.serverName} ${event.uri}`));
    await host.discover();
    expect(host.servers.status().servers.map((server) => server.protocolVersion)).toEqual(['2026-07-28', '2025-11-25']);
  });
  afterAll(async () => {
    await host.close();
  });

  const callOn = async (serverName: string, tool: string, args: Record<string, unknown> = {}) => {
    const entry = host.servers.listTools().find((candidate) => candidate.serverName === serverName && candidate.originalName === tool);
    const result = await host.callTool({ name: entry?.name ?? tool, arguments: args });
    expect(result.error).toBeUndefined();
    return result.display;
  };
  const toolsOf = (serverName: string) =>
    host.servers
      .listTools()
      .filter((tool) => tool.serverName === serverName)
      .map((tool) => tool.originalName);

  it('re-lists tools and prompts when the server says they changed', async () => {
    for (const server of ['modern', 'legacy']) {
      expect(toolsOf(server)).toContain('dynamic-0');
      await callOn(server, 'change-tools', { count: 2 });
      await callOn(server, 'change-prompts');
    }
    await expect.poll(() => [toolsOf('modern').includes('dynamic-2'), toolsOf('legacy').includes('dynamic-2')]).toEqual([true, true]);
    expect(toolsOf('modern')).not.toContain('dynamic-0');
    await expect
      .poll(() => host.prompts.list().map((prompt) => `${prompt.serverName}:${prompt.name}`))
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^modern:.*dynamic-prompt-1$/),
          expect.stringMatching(/^legacy:.*dynamic-prompt-1$/),
        ]),
      );
  });

  it('delivers resource updates to subscribers, and none after unsubscribing', async () => {
    for (const server of ['modern', 'legacy']) await host.resources.subscribe({ serverName: server, uri: WATCHED });
    await callOn('modern', 'touch-resource');
    await callOn('legacy', 'touch-resource');
    await expect.poll(() => [...updates].sort()).toEqual([`legacy ${WATCHED}`, `modern ${WATCHED}`]);
    for (const server of ['modern', 'legacy']) await host.resources.unsubscribe({ serverName: server, uri: WATCHED });
    updates.length = 0;
    await callOn('modern', 'touch-resource');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates).toEqual([]);
  });
});
