// Tools that need the user or the model mid-call, on both wires through the same UI hooks: on
// 2026-07-28 the server answers input_required and the call is re-sent with the answers; on
// 2025-11-25 the server sends elicitation/sampling/roots requests. Real servers on loopback.
import { fixtureBinPath, startEraHttpFixture, type EraHttpFixture } from '@toolhost-internal/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedAdapter } from './create-scripted-adapter.js';
import { McpToolHost } from './mcp-tool-host.js';

describe('client input mid-call on both protocol eras', () => {
  let http: EraHttpFixture;
  let host: McpToolHost;
  const elicited: string[] = [];
  const sampled: string[] = [];

  beforeAll(async () => {
    http = await startEraHttpFixture({ behaviour: 'interactive', era: 'modern' });
    // 2026-07-28 pinned: in auto mode a stdio server that has not answered the version probe within
    // 5 s (a busy machine starting it) counts as a 2025-era one.
    const stdio = (era: string) => ({
      command: process.execPath,
      args: [fixtureBinPath('interactive'), `--era=${era}`],
      trust: true,
      ...(era === 'modern' ? { protocolVersion: '2026-07-28' as const } : {}),
    });
    host = await McpToolHost.create({
      settings: { mcpServers: { legacy: stdio('legacy'), modern: stdio('modern'), remote: { httpUrl: http.url, trust: true } } },
      adapter: createScriptedAdapter({ turns: [], sampling: () => 'MCP connects models to tools.' }),
      roots: ['/work/project-a'],
      ui: {
        elicit: async (request) => {
          elicited.push(`${request.serverName}: ${request.message}`);
          return { action: 'accept', content: { name: `Ada via ${request.serverName}` } };
        },
        approveSampling: async (request) => {
          sampled.push(request.serverName);
          return { action: 'approve' };
        },
      },
    });
    await host.discover();
  });
  afterAll(async () => {
    await host.close();
    await http.close();
  });

  const call = async (server: string, tool: string) => {
    const entry = host.servers.listTools().find((candidate) => candidate.serverName === server && candidate.originalName === tool);
    const result = await host.callTool({ name: entry?.name ?? `${server}:${tool}`, arguments: {} });
    return result.error ? `error: ${result.error.message}` : result.display;
  };

  it('negotiated each server its own era', () => {
    expect(host.servers.status().servers.map((server) => [server.name, server.protocolVersion])).toEqual([
      ['legacy', '2025-11-25'],
      ['modern', '2026-07-28'],
      ['remote', '2026-07-28'],
    ]);
  });

  it('runs form elicitation through ui.elicit', async () => {
    for (const server of ['legacy', 'modern', 'remote']) expect(await call(server, 'ask-name')).toBe(`hello Ada via ${server}`);
    expect(elicited).toEqual(['legacy: What is your name?', 'modern: What is your name?', 'remote: What is your name?']);
  });

  it('runs sampling through approveSampling and the adapter', async () => {
    for (const server of ['legacy', 'modern', 'remote'])
      expect(await call(server, 'summarise')).toBe('model said: MCP connects models to tools.');
    expect(sampled).toEqual(['legacy', 'modern', 'remote']);
  });

  it('answers roots from the host roots', async () => {
    for (const server of ['legacy', 'modern', 'remote']) expect(await call(server, 'show-roots')).toBe('roots: file:///work/project-a');
  });

  it('stops a server that asks for input on every round, with an error naming it', async () => {
    const before = elicited.length;
    const outcome = await call('modern', 'ask-forever');
    expect(outcome).toMatch(/^error: /);
    expect(outcome).toContain('modern');
    // Whichever bound trips first: the SDK's round cap or the per-server request rate limit.
    expect(outcome).toMatch(/after 10 rounds|too many elicitation\/create requests/);
    expect(elicited.length - before).toBeLessThanOrEqual(11);
  });
});
