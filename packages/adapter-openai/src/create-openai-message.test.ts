import OpenAI from 'openai';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdapterError, type SamplingRequest } from '@toolhost/contract';
import { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';
import { createOpenAIResponsesAdapter } from './create-openai-responses-adapter.js';

const bodies: Record<string, unknown>[] = [];
let chatReply: Record<string, unknown> = {};
let responsesReply: Record<string, unknown> = {};

const server = setupServer(
  http.post('https://api.openai.com/v1/chat/completions', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json(chatReply);
  }),
  http.post('https://api.openai.com/v1/responses', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json(responsesReply);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

// Created after msw starts listening: the SDK keeps the fetch it finds at construction.
let client: OpenAI;
beforeAll(() => {
  client = new OpenAI({ apiKey: 'test-key', maxRetries: 0 });
});
const request: SamplingRequest = {
  systemPrompt: 'Be brief.',
  maxTokens: 40,
  temperature: 0.1,
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
  ],
};

describe('OpenAI adapters answer sampling requests', () => {
  it('have no createMessage without a sampling client', () => {
    expect(createOpenAIChatAdapter().createMessage).toBeUndefined();
    expect(createOpenAIResponsesAdapter().createMessage).toBeUndefined();
  });

  it('Chat Completions: system message, image_url, stop, max_completion_tokens', async () => {
    chatReply = {
      id: 'c1',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test-0',
      choices: [{ index: 0, finish_reason: 'length', message: { role: 'assistant', content: 'Short.' } }],
    };
    const adapter = createOpenAIChatAdapter({ sampling: { client, model: 'gpt-test' } });
    await expect(adapter.createMessage?.(request, {})).resolves.toEqual({ model: 'gpt-test-0', text: 'Short.', stopReason: 'maxTokens' });
    expect(bodies.at(-1)).toEqual({
      model: 'gpt-test',
      max_completion_tokens: 40,
      temperature: 0.1,
      stop: ['END'],
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBO' } },
          ],
        },
        { role: 'assistant', content: 'Nice.' },
      ],
    });
  });

  it('Responses: instructions, input_image, max_output_tokens', async () => {
    responsesReply = {
      id: 'resp_1',
      object: 'response',
      model: 'gpt-test-0',
      status: 'completed',
      output: [
        {
          type: 'message',
          id: 'm1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Done.', annotations: [] }],
        },
      ],
    };
    const adapter = createOpenAIResponsesAdapter({ sampling: { client, model: 'gpt-test' } });
    await expect(adapter.createMessage?.(request, {})).resolves.toEqual({ model: 'gpt-test-0', text: 'Done.', stopReason: 'endTurn' });
    expect(bodies.at(-1)).toMatchObject({
      model: 'gpt-test',
      instructions: 'Be brief.',
      max_output_tokens: 40,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'Look:' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBO' },
          ],
        },
        { role: 'assistant', content: 'Nice.' },
      ],
    });
  });

  it('fails with EMPTY_SAMPLING_RESPONSE when no text comes back', async () => {
    chatReply = {
      id: 'c2',
      object: 'chat.completion',
      created: 0,
      model: 'm',
      choices: [{ index: 0, finish_reason: 'content_filter', message: { role: 'assistant', content: null } }],
    };
    const adapter = createOpenAIChatAdapter({ sampling: { client, model: 'gpt-test' } });
    const error = await adapter.createMessage?.(request, {}).catch((e: unknown) => e);
    expect(AdapterError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EMPTY_SAMPLING_RESPONSE', provider: 'openai', finishReason: 'content_filter' });
  });
});
