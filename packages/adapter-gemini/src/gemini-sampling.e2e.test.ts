// End to end: an MCP server's sampling/createMessage → McpToolHost → Gemini adapter → @google/genai → msw.
import { createRequire } from 'node:module';
import { GoogleGenAI } from '@google/genai';
import type { SamplingRequest } from '@toolhost/contract';
import { McpToolHost } from '@toolhost/host';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiAdapter } from './create-gemini-adapter.js';

const everythingServer = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const bodies: Record<string, unknown>[] = [];

const api = setupServer(
  http.post(/generativelanguage\.googleapis\.com\/v1beta\/models\/gemini-sampler:generateContent$/, async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Autumn moon rises' }] }, finishReason: 'STOP' }],
    });
  }),
);

const approved: SamplingRequest[] = [];
let host: McpToolHost;

beforeAll(async () => {
  api.listen({ onUnhandledRequest: 'error' });
  host = await McpToolHost.create({
    settings: { mcpServers: { everything: { command: process.execPath, args: [everythingServer, 'stdio'], trust: true } } },
    adapter: createGeminiAdapter({ sampling: { client: new GoogleGenAI({ apiKey: 'test-key' }), model: 'gemini-sampler' } }),
    ui: {
      approveSampling: async ({ request }) => {
        approved.push(request);
        return { action: 'approve' };
      },
    },
  });
  await host.discover();
});

afterAll(async () => {
  await host?.close();
  api.close();
});

describe('Gemini adapter answers MCP sampling end to end', () => {
  it('sends the server sampling request through the GoogleGenAI client and returns the text to the server', async () => {
    const outcome = await host.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'a haiku about autumn', maxTokens: 20 } });
    expect(outcome.isError).toBe(false);
    expect(approved).toHaveLength(1);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      systemInstruction: { parts: [{ text: 'You are a helpful test server.' }] },
      generationConfig: { maxOutputTokens: 20 },
    });
    expect(JSON.stringify(bodies[0]?.['contents'])).toContain('a haiku about autumn');
    const text = outcome.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
    expect(text).toContain('Autumn moon rises');
  });
});
