import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import type { ToolCall } from './tool-call.js';
import { fixtureServer } from './test-support.js';

describe('tool calls with faulty UI hooks', () => {
  let host: McpToolHost;
  const updates: ToolCall[] = [];

  beforeAll(async () => {
    host = await McpToolHost.create({
      settings: { mcpServers: { basic: fixtureServer('basic', { trust: true }) } },
      ui: {
        onToolCallUpdate: () => {
          throw new Error('UI bug');
        },
      },
    });
    host.on('tool-call-update', (call) => updates.push(call));
    await host.discover();
  });

  afterAll(async () => {
    await host.close();
  });

  it('still runs the call and reports every update when onToolCallUpdate throws', async () => {
    const result = await host.callTool('echo', { message: 'still here' });
    expect(result.isError).toBe(false);
    expect(result.parts).toEqual([{ type: 'text', text: 'still here' }]);
    expect(updates.map((u) => u.status)).toEqual(['PENDING', 'EXECUTING', 'SUCCEEDED']);
  });
});
