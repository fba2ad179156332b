// Names through McpToolHost: a tool's qualified `server__tool` always resolves to that server's
// tool (bare-named or not, whichever other servers are up), and prompt commands are named like
// Gemini CLI's (trimmed, whitespace → `-`).
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer } from './test-support.js';

const hosts: McpToolHost[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A stateless Streamable HTTP server on loopback offering the given prompts (no arguments). */
async function startPromptServer(promptNames: readonly string[]): Promise<string> {
  const app = express();
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await once(server, 'listening');
  app.post('/mcp', express.json(), async (req, res) => {
    const mcp = new McpServer({ name: 'prompts', version: '1.0.0' });
    for (const name of promptNames) {
      mcp.registerPrompt(name, { description: `prompt ${name}` }, () => ({
        messages: [{ role: 'user', content: { type: 'text', text: `text of ${name}` } }],
      }));
    }
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

describe('qualified tool names', () => {
  it('resolves server__tool to the same tool whether it is bare-named and whether the conflicting server is up', async () => {
    // Both servers offer `echo`; `alpha` is listed first, so its echo is registered bare.
    const host = await McpToolHost.create({
      settings: {
        mcpServers: {
          alpha: fixtureServer('crash', { trust: true }),
          beta: fixtureServer('basic', { trust: true }),
        },
      },
      reconnect: { maxAttempts: 0 },
    });
    hosts.push(host);
    await host.discover();
    const names = host.servers.listTools().map((tool) => tool.name);
    expect(names).toContain('echo');
    expect(names).toContain('beta__echo');
    expect(names).not.toContain('alpha__echo');

    const serverOf = async (name: string) => {
      const result = await host.callTool({ name, arguments: { message: name } });
      return { server: result.toolCall.serverName, error: result.error?.code, message: result.error?.message };
    };
    expect(await serverOf('echo')).toMatchObject({ server: 'alpha', error: undefined });
    // The qualified alias of a bare-named tool resolves too.
    expect(await serverOf('alpha__echo')).toMatchObject({ server: 'alpha', error: undefined });
    expect(await serverOf('beta__echo')).toMatchObject({ server: 'beta', error: undefined });

    // alpha goes down (and stays down): beta's echo takes the bare name.
    await host.callTool({ name: 'crash', arguments: {} });
    await expect.poll(() => host.servers.listTools().find((tool) => tool.name === 'echo')?.serverName).toBe('beta');
    expect(host.servers.listTools().map((tool) => tool.name)).not.toContain('beta__echo');

    // The remembered qualified name still reaches beta; the bare name shifted, as documented.
    expect(await serverOf('beta__echo')).toMatchObject({ server: 'beta', error: undefined });
    expect(await serverOf('echo')).toMatchObject({ server: 'beta', error: undefined });
    // alpha's qualified name says why it cannot be called instead of listing tools only.
    const down = await serverOf('alpha__echo');
    expect(down.error).toBe('TOOL_NOT_FOUND');
    expect(down.message).toContain('MCP server "alpha" is disconnected');
  });
});

describe('prompt command names', () => {
  it('trims a prompt name and turns whitespace into "-", as Gemini CLI does, and fetches it by its original name', async () => {
    const url = await startPromptServer(['Prompt Name', '  spaced \t out  ']);
    const host = await McpToolHost.create({ settings: { mcpServers: { docs: { httpUrl: url } } } });
    hosts.push(host);
    await host.discover();
    const prompts = host.prompts.list();
    expect(prompts.map((prompt) => [prompt.name, prompt.promptName])).toEqual([
      ['Prompt-Name', 'Prompt Name'],
      ['spaced-out', '  spaced \t out  '],
    ]);
    const result = await host.commands.run({ line: '/Prompt-Name' });
    expect(result).toMatchObject({ kind: 'prompt', promptName: 'Prompt Name', text: 'text of Prompt Name' });
  });
});
