import { describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer } from './test-support.js';

async function until(predicate: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('McpToolHost registries', () => {
  it('gives a later server\u2019s conflicting prompt a prefixed command name, and runs both', async () => {
    const host = await McpToolHost.create({
      settings: { mcpServers: { first: fixtureServer('basic'), second: fixtureServer('basic') } },
    });
    try {
      await host.discover();
      const poems = host.prompts.list().filter((prompt) => prompt.promptName === 'poem-writer');
      expect(poems.map((prompt) => [prompt.serverName, prompt.name])).toEqual([
        ['first', 'poem-writer'],
        ['second', 'second__poem-writer'],
      ]);
      const result = await host.commands.run({ line: '/second__poem-writer Tides' });
      expect(result).toMatchObject({ kind: 'prompt', serverName: 'second', promptName: 'poem-writer' });
      const help = await host.commands.run({ line: '/poem-writer --help' });
      expect(help.text).toContain('--title="..." Title of the poem (required: yes)');
      expect(help.text).toContain('--mood="..." Mood (required: no)');
    } finally {
      await host.close();
    }
  });

  it('follows a server\u2019s tools/list_changed and reports it', async () => {
    const host = await McpToolHost.create({ settings: { mcpServers: { live: fixtureServer('list-changed', { trust: true }) } } });
    const changes: string[] = [];
    host.on('registry-change', ({ kind }) => changes.push(kind));
    try {
      await host.discover();
      expect(host.servers.listTools().map((tool) => tool.name)).toContain('dynamic-0');
      await host.callTool({ name: 'change-tools', arguments: {} });
      await until(() => host.servers.listTools().some((tool) => tool.name === 'dynamic-1'));
      expect(host.servers.listTools().map((tool) => tool.name)).not.toContain('dynamic-0');
      expect(changes).toContain('tools');
      const result = await host.callTool({ name: 'dynamic-1', arguments: {} });
      expect(result.parts).toEqual([{ type: 'text', text: 'dynamic-1' }]);
    } finally {
      await host.close();
    }
  });
});
