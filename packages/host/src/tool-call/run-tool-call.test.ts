// Tool calls through McpToolHost against real servers on loopback: progress that extends the
// timeout, the overall cap, cancellation and late results, a resumed Streamable HTTP stream, and
// the URL-elicitation-required (-32042) retry.
import type { ElicitationRequest, ToolCall } from '@toolhost/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClientFeaturesServer, type ClientFeaturesServer } from '@toolhost-internal/fixtures';
import type { ToolCallProgressEvent } from '../host-events.js';
import { McpToolHost } from '../mcp-tool-host.js';
import { everythingServer, waitFor } from '../test-support.js';

describe('McpToolHost.callTool against the client-features fixture (Streamable HTTP)', () => {
  let fixture: ClientFeaturesServer;
  let host: McpToolHost;

  beforeAll(async () => {
    fixture = await startClientFeaturesServer({ retryMs: 400 });
    // The calls below last 3 s against a 2 s timeout and a 6 s cap: seconds apart, so a busy
    // machine (late timers, slow requests) cannot turn one outcome into the other.
    host = await McpToolHost.create({
      settings: { mcpServers: { fixture: { httpUrl: fixture.url, trust: true, timeout: 2_000 } } },
      maxTotalCallTimeoutMs: 6_000,
    });
    await host.discover();
    // The 2 s timeout is what these tests are about; it also bounds connecting, which a loaded
    // machine can miss: connect again rather than fail every test of the file.
    for (let attempt = 0; attempt < 5 && host.servers.status().servers[0]?.status !== 'CONNECTED'; attempt++)
      await host.servers.reconnect({ serverName: 'fixture' }).catch(() => undefined);
    expect(host.servers.status().servers[0]?.status).toBe('CONNECTED');
  });
  afterAll(async () => {
    await host.close();
    await fixture.close();
  });

  it('asks for progress when someone listens: each notification restarts the timeout', async () => {
    const events: ToolCallProgressEvent[] = [];
    const off = host.on('tool-call-progress', (event) => events.push(event));
    const result = await host.callTool({ name: 'wait', arguments: { ms: 3_000, progressEveryMs: 100 }, toolCallId: 'p1' });
    off();
    expect(result.error).toBeUndefined();
    expect(result.parts).toEqual([{ type: 'text', text: 'waited 3000 ms' }]);
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(events[0]).toEqual({ toolCallId: 'p1', serverName: 'fixture', toolName: 'wait', progress: 1, message: 'step 1' });
  });

  it('without a progress listener the server timeout applies as it is', async () => {
    const result = await host.callTool({ name: 'wait', arguments: { ms: 3_000, progressEveryMs: 100 } });
    expect(result.error?.code).toBe('REQUEST_TIMEOUT');
    expect(result.error?.message).toContain('did not answer within 2000 ms');
  });

  it('stops at the overall cap even while progress arrives', async () => {
    const off = host.on('tool-call-update', () => undefined);
    const started = Date.now();
    const result = await host.callTool({ name: 'wait', arguments: { ms: 20_000, progressEveryMs: 100 } });
    off();
    expect(result.error?.code).toBe('REQUEST_TIMEOUT');
    expect(result.toolCall.status).toBe('FAILED');
    // The 6 s cap, not the 20 s the call would take.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('cancelling sends notifications/cancelled, ends CANCELLED, and the late result is dropped', async () => {
    const updates: ToolCall[] = [];
    const off = host.on('tool-call-update', (call) => updates.push(call));
    const before = fixture.state.cancelled.length;
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user pressed Esc')), 150);
    const result = await host.callTool({ name: 'wait', arguments: { ms: 500 }, toolCallId: 'c1' }, { signal: controller.signal });
    off();
    expect(result.error?.code).toBe('CANCELLED');
    expect(updates.map((update) => update.status)).toEqual(['PENDING', 'EXECUTING', 'CANCELLED']);
    await waitFor(() => fixture.state.cancelled.length > before);
    expect(fixture.state.cancelled.at(-1)?.reason).toContain('user pressed Esc');
    const late = fixture.state.cancelled.at(-1)?.requestId;
    await waitFor(() => fixture.state.lateResults.includes(late as string | number));
    // The host stays usable after the server answered a request the client had given up on.
    expect((await host.callTool({ name: 'wait', arguments: { ms: 1 } })).error).toBeUndefined();
  });

  it('waits for the server\u2019s SSE retry and resumes with Last-Event-ID when the stream drops mid-call', async () => {
    // A retry of 3 s, far from the SDK's own 1 s first delay: a client that ignored it would be
    // back after about 1 s (which a busy machine only makes later, never earlier).
    const retrying = await startClientFeaturesServer({ retryMs: 3_000 });
    const resumable = await McpToolHost.create({
      settings: { mcpServers: { fixture: { httpUrl: retrying.url, trust: true, timeout: 60_000 } } },
    });
    try {
      await resumable.discover();
      const result = await resumable.callTool({ name: 'drop-stream' });
      expect(result.parts).toEqual([{ type: 'text', text: 'answered after the stream was dropped' }]);
      const closedAt = retrying.state.streamClosedAt ?? Number.POSITIVE_INFINITY;
      const resumed = retrying.state.getRequests.filter((request) => request.lastEventId !== undefined && request.at >= closedAt);
      expect(resumed.length).toBeGreaterThanOrEqual(1);
      const delay = (resumed[0]?.at ?? 0) - closedAt;
      expect(delay).toBeGreaterThanOrEqual(2_900);
      expect(delay).toBeLessThan(20_000);
    } finally {
      await resumable.close();
      await retrying.close();
    }
  });
});

describe('McpToolHost.callTool and URL elicitation required (-32042), server-everything', () => {
  it('shows each prerequisite URL through ui.elicit, then sends the call once more', async () => {
    const asked: ElicitationRequest[] = [];
    const host = await McpToolHost.create({
      settings: { mcpServers: { everything: everythingServer({ trust: true }) } },
      ui: { elicit: async (request) => (asked.push(request), { action: 'accept' }) },
    });
    try {
      await host.discover();
      const result = await host.callTool({
        name: 'trigger-url-elicitation',
        arguments: { url: 'https://example.com/finish', errorPath: true },
      });
      expect(result.error).toBeUndefined();
      expect(asked[0]).toMatchObject({ mode: 'url', domain: 'modelcontextprotocol.io', serverName: 'everything' });
      expect(asked[1]).toMatchObject({ mode: 'url', url: 'https://example.com/finish' });
      expect(result.display).toContain('User completed the URL elicitation flow');
    } finally {
      await host.close();
    }
  });

  it('fails the call with the server\u2019s error when the user declines', async () => {
    const host = await McpToolHost.create({
      settings: { mcpServers: { everything: everythingServer({ trust: true }) } },
      ui: { elicit: async () => ({ action: 'decline' }) },
    });
    try {
      await host.discover();
      const result = await host.callTool({
        name: 'trigger-url-elicitation',
        arguments: { url: 'https://example.com/other', errorPath: true },
      });
      expect(result.error?.code).toBe('REQUEST_FAILED');
      expect(result.error?.cause).toMatchObject({ code: -32042 });
    } finally {
      await host.close();
    }
  });
});
