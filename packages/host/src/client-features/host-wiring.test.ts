// End-to-end: the client features as McpToolHost wires them, against real servers.
import { afterEach, describe, expect, it } from 'vitest';
import { startClientFeaturesServer, type ClientFeaturesServer } from '@toolhost-internal/fixtures';
import { createScriptedAdapter } from '../create-scripted-adapter.js';
import { McpToolHost } from '../mcp-tool-host.js';
import type { ElicitationRequest } from '@toolhost/contract';
import type { ServerLogEvent } from '../host-events.js';
import { EVERYTHING_SERVER_PATH as EVERYTHING_SERVER, waitFor } from '../test-support.js';

const hosts: McpToolHost[] = [];
const fixtures: ClientFeaturesServer[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

const everything = { command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], trust: true };

describe('McpToolHost client features', () => {
  it('answers sampling with the adapter, elicits through the UI and offers roots', async () => {
    const elicitations: ElicitationRequest[] = [];
    const logs: ServerLogEvent[] = [];
    const adapter = createScriptedAdapter({ sampling: (request) => `sampled ${request.maxTokens}` });
    const host = await McpToolHost.create({
      settings: { mcpServers: { everything } },
      adapter,
      roots: ['/work/project'],
      ui: {
        approveSampling: async () => ({ action: 'approve' }),
        elicit: async (request) => (elicitations.push(request), { action: 'accept', content: { name: 'Ada' } }),
      },
    });
    hosts.push(host);
    host.on('server-log', (event) => logs.push(event));
    await host.discover();

    const sampled = await host.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 9 } });
    expect(sampled.error).toBeUndefined();
    expect(JSON.stringify(sampled.parts)).toContain('sampled 9');

    const elicited = await host.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(elicitations[0]).toMatchObject({ mode: 'form', serverName: 'everything' });
    expect(JSON.stringify(elicited.parts)).toContain('Name: Ada');

    await waitFor(() => logs.some((log) => String(log.data).includes('1 root(s)')));
    await host.roots.set({ folders: ['/work/project', '/work/other'] });
    await waitFor(() => logs.some((log) => String(log.data).includes('2 root(s)')));
    expect(logs.every((log) => log.serverName === 'everything')).toBe(true);
  });

  it('reports progress per call and cancels on the server', async () => {
    const fixture = await startClientFeaturesServer();
    fixtures.push(fixture);
    const host = await McpToolHost.create({ settings: { mcpServers: { fixture: { httpUrl: fixture.url, trust: true } } } });
    hosts.push(host);
    await host.discover();
    const progress: number[] = [];
    host.on('tool-call-progress', (event) => progress.push(event.progress));
    const done = await host.callTool({ name: 'wait', arguments: { ms: 500, progressEveryMs: 100 } });
    expect(done.error).toBeUndefined();
    expect(progress.length).toBeGreaterThanOrEqual(3);

    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const cancelled = await host.callTool({ name: 'wait', arguments: { ms: 600 } }, { signal: controller.signal });
    expect(cancelled.error?.code).toBe('CANCELLED');
    await waitFor(() => fixture.state.cancelled.length > 0);
  });

  it('keeps a result whose JSON is only in text although the tool has an output schema', async () => {
    const fixture = await startClientFeaturesServer();
    fixtures.push(fixture);
    const host = await McpToolHost.create({ settings: { mcpServers: { fixture: { httpUrl: fixture.url, trust: true } } } });
    hosts.push(host);
    await host.discover();
    const result = await host.callTool({ name: 'json-in-text', arguments: {} });
    expect(result.error).toBeUndefined();
    expect(result.parts).toEqual([{ type: 'text', text: '{"total":42}' }]);
    const mismatched = await host.callTool({ name: 'bad-structured', arguments: {} });
    expect(mismatched.error).toBeUndefined();
    expect(mismatched.structuredContent).toEqual({ total: 'many' });
  });
});
