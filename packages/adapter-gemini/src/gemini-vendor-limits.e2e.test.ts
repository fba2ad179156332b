// End to end: a real stdio MCP server with 513 tools → McpToolHost → Gemini adapter → @google/genai → msw (Gemini API).
import { GoogleGenAI } from '@google/genai';
import { createFixtureHost } from '@toolhost-internal/test-support';
import { AdapterError } from '@toolhost/contract';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiAdapter } from './create-gemini-adapter.js';

const bodies: Record<string, unknown>[] = [];

const api = setupServer(
  http.post(/generativelanguage\.googleapis\.com\/v1beta\/models\/gemini-test:generateContent$/, async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ candidates: [{ content: { role: 'model', parts: [{ text: 'Nothing to call.' }] }, finishReason: 'STOP' }] });
  }),
);

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterAll(() => api.close());

describe('Gemini tool limit end to end', () => {
  it('fails listTools for a server with 513 tools before any request, and sends 512 when a filter leaves one out', async () => {
    const { host } = await createFixtureHost(createGeminiAdapter(), {}, { behaviour: 'paginated', args: ['--pages=1', '--page-size=513'] });
    try {
      expect(host.listToolDefinitions()).toHaveLength(513);
      let caught: unknown;
      try {
        host.listTools();
      } catch (error) {
        caught = error;
      }
      expect(AdapterError.isInstance(caught)).toBe(true);
      expect(caught).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', provider: 'gemini', limit: 'maxTools' });
      expect((caught as Error).message).toContain('Gemini accepts at most 512 tools in one request');
      expect(bodies).toHaveLength(0);

      const functionDeclarations = host.listTools({ filter: (tool) => tool.name !== 'tool-513' });
      const ai = new GoogleGenAI({ apiKey: 'test-key' });
      await ai.models.generateContent({ model: 'gemini-test', contents: 'hi', config: { tools: [{ functionDeclarations }] } });
      const sent = (bodies[0]?.['tools'] as { functionDeclarations: unknown[] }[])[0]?.functionDeclarations;
      expect(sent).toHaveLength(512);
    } finally {
      await host.close();
    }
  });
});
