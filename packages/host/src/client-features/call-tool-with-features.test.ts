import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startClientFeaturesServer,
  type ClientFeaturesServer,
} from '../../../fixtures/src/client-features/client-features-server.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callToolWithFeatures, type ToolProgressEvent } from './call-tool-with-features.js';
import { LenientClient } from './lenient-client.js';
import { connectHttp, resultText, waitFor } from './test-support.js';
import { getToolPresentation } from './tool-presentation.js';

let fixture: ClientFeaturesServer;
let client: Client;
const errors: Error[] = [];

beforeAll(async () => {
  fixture = await startClientFeaturesServer();
  client = await connectHttp(fixture.url, {}, (c) => {
    c.onerror = (error) => errors.push(error);
  });
});
afterAll(async () => {
  await client.close();
  await fixture.close();
});

const base = { serverName: 'fixture' } as const;

describe('progress and timeouts', () => {
  it('reports progress per call and lets progress restart the timeout', async () => {
    const events: ToolProgressEvent[] = [];
    const { result } = await callToolWithFeatures(client, {
      ...base,
      toolName: 'wait',
      arguments: { ms: 1200, progressEveryMs: 100 },
      timeoutMs: 600,
      onProgress: (event) => events.push(event),
    });
    expect(resultText(result)).toBe('waited 1200 ms');
    expect(events.length).toBeGreaterThanOrEqual(5);
    expect(events[0]).toEqual({ serverName: 'fixture', toolName: 'wait', progress: 1, message: 'step 1' });
  });

  it('times out when no progress arrives', async () => {
    await expect(
      callToolWithFeatures(client, { ...base, toolName: 'wait', arguments: { ms: 1500 }, timeoutMs: 300 }),
    ).rejects.toMatchObject({ code: -32001 });
  });

  it('enforces the overall cap even while progress arrives', async () => {
    await expect(
      callToolWithFeatures(client, {
        ...base,
        toolName: 'wait',
        arguments: { ms: 3000, progressEveryMs: 100 },
        timeoutMs: 600,
        maxTotalTimeoutMs: 900,
      }),
    ).rejects.toMatchObject({ code: -32001 });
  });
});

describe('cancellation', () => {
  it('sends notifications/cancelled and drops the late result', async () => {
    const before = fixture.state.cancelled.length;
    const controller = new AbortController();
    let settled: 'resolved' | 'rejected' | undefined;
    const call = callToolWithFeatures(client, { ...base, toolName: 'wait', arguments: { ms: 700 }, signal: controller.signal }).then(
      () => (settled = 'resolved'),
      () => (settled = 'rejected'),
    );
    setTimeout(() => controller.abort(new Error('user pressed Esc')), 150);
    await call;
    expect(settled).toBe('rejected');
    await waitFor(() => fixture.state.cancelled.length > before);
    expect(fixture.state.cancelled.at(-1)?.reason).toContain('user pressed Esc');
    // The server still finishes and answers; the client must drop that response.
    const late = fixture.state.cancelled.at(-1)?.requestId;
    await waitFor(() => fixture.state.lateResults.includes(late as string | number));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(settled).toBe('rejected');
  });
});

describe('structured content and presentation', () => {
  it('recovers structured content from JSON text instead of failing (gemini-cli#21053)', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((entry) => entry.name === 'json-in-text');
    await expect(client.callTool({ name: 'json-in-text', arguments: {} })).rejects.toThrow(/did not return structured content/);
    const { result, structured } = await callToolWithFeatures(client, {
      ...base,
      toolName: 'json-in-text',
      ...(tool?.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    });
    expect(structured).toEqual({ status: 'recovered-from-text', structuredContent: { total: 42 } });
    expect(resultText(result)).toBe('{"total":42}');
  });

  it('LenientClient.callTool returns such results instead of throwing', async () => {
    const lenient = new LenientClient({ name: 'toolhost-test', version: '0.0.0' }, { capabilities: {} });
    await lenient.connect(new StreamableHTTPClientTransport(new URL(fixture.url)));
    try {
      await lenient.listTools();
      const result = await lenient.callTool({ name: 'json-in-text', arguments: {} });
      expect(resultText(result)).toBe('{"total":42}');
      const mismatched = await lenient.callTool({ name: 'bad-structured', arguments: {} });
      expect(mismatched.structuredContent).toEqual({ total: 'many' });
    } finally {
      await lenient.close();
    }
  });

  it('passes mismatching structured content on with status invalid', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((entry) => entry.name === 'bad-structured');
    const { structured } = await callToolWithFeatures(client, {
      ...base,
      toolName: 'bad-structured',
      ...(tool?.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    });
    expect(structured.status).toBe('invalid');
    expect(structured.structuredContent).toEqual({ total: 'many' });
    expect(structured.errorMessage).toMatch(/total/);
  });

  it('exposes title, annotations and safe icons', async () => {
    const { tools } = await client.listTools();
    const wait = tools.find((entry) => entry.name === 'wait');
    const presentation = getToolPresentation(wait!);
    expect(presentation.title).toBe('Wait a while');
    expect(presentation.annotations).toEqual({ readOnlyHint: true, idempotentHint: true });
    expect(presentation.icons).toEqual([{ src: 'https://example.com/wait.png', mimeType: 'image/png', sizes: ['48x48'] }]);
    const json = getToolPresentation(tools.find((entry) => entry.name === 'json-in-text')!);
    expect(json.title).toBe('json-in-text');
    expect(json.outputSchema).toMatchObject({ required: ['total'] });
  });
});
