import { GoogleGenAI } from '@google/genai';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdapterError } from '@toolhost/contract';
import { createGeminiAdapter } from './create-gemini-adapter.js';

const requests: { url: string; body: Record<string, unknown> }[] = [];
let reply: Record<string, unknown> = {};

const server = setupServer(
  http.post(/generativelanguage\.googleapis\.com\/.*:generateContent$/, async ({ request }) => {
    requests.push({ url: request.url, body: (await request.json()) as Record<string, unknown> });
    return HttpResponse.json(reply);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('createGeminiAdapter({ sampling }).createMessage', () => {
  const client = new GoogleGenAI({ apiKey: 'test-key' });

  it('is absent without a sampling client, so the host declines sampling', () => {
    expect(createGeminiAdapter().createMessage).toBeUndefined();
  });

  it('sends the conversation through the client and returns the text', async () => {
    reply = {
      candidates: [{ content: { role: 'model', parts: [{ text: 'A haiku ' }, { text: 'appears.' }] }, finishReason: 'STOP' }],
      modelVersion: 'gemini-test-001',
    };
    const adapter = createGeminiAdapter({ sampling: { client, model: 'gemini-test' } });
    const result = await adapter.createMessage?.(
      {
        systemPrompt: 'Be brief.',
        maxTokens: 50,
        temperature: 0.2,
        stopSequences: ['END'],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look:' },
              { type: 'inlineData', mimeType: 'image/png', data: 'iVBO' },
            ],
          },
          { role: 'assistant', content: { type: 'text', text: 'Nice.' } },
          { role: 'user', content: { type: 'text', text: 'Write a haiku.' } },
        ],
      },
      {},
    );
    expect(result).toEqual({ model: 'gemini-test-001', text: 'A haiku appears.', stopReason: 'endTurn' });
    const last = requests.at(-1);
    expect(last?.url).toContain('/models/gemini-test:generateContent');
    expect(last?.body).toMatchObject({
      contents: [
        { role: 'user', parts: [{ text: 'Look:' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }] },
        { role: 'model', parts: [{ text: 'Nice.' }] },
        { role: 'user', parts: [{ text: 'Write a haiku.' }] },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { maxOutputTokens: 50, temperature: 0.2, stopSequences: ['END'] },
    });
  });

  it('fails with EMPTY_SAMPLING_RESPONSE when the model sends no text', async () => {
    reply = { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'SAFETY' }] };
    const adapter = createGeminiAdapter({ sampling: { client, model: 'gemini-test' } });
    const error = await adapter
      .createMessage?.({ maxTokens: 5, messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }, {})
      .catch((e: unknown) => e);
    expect(AdapterError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EMPTY_SAMPLING_RESPONSE', provider: 'gemini', finishReason: 'SAFETY' });
  });
});
