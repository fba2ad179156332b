import Anthropic from '@anthropic-ai/sdk';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdapterError } from '@toolhost/contract';
import { createAnthropicAdapter } from './create-anthropic-adapter.js';

const bodies: Record<string, unknown>[] = [];
let reply: Record<string, unknown> = {};

const server = setupServer(
  http.post('https://api.anthropic.com/v1/messages', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json(reply);
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

describe('createAnthropicAdapter({ sampling }).createMessage', () => {
  // Created after msw starts listening: the SDK keeps the fetch it finds at construction.
  let client: Anthropic;
  beforeAll(() => {
    client = new Anthropic({ apiKey: 'test-key', maxRetries: 0 });
  });

  it('is absent without a sampling client', () => {
    expect(createAnthropicAdapter().createMessage).toBeUndefined();
  });

  it('sends system, messages with images, stop sequences and maps the stop reason', async () => {
    reply = {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test-0',
      stop_reason: 'stop_sequence',
      stop_sequence: 'END',
      content: [{ type: 'text', text: 'Brief.' }],
      usage: { input_tokens: 1, output_tokens: 1 },
    };
    const adapter = createAnthropicAdapter({ sampling: { client, model: 'claude-test' } });
    const result = await adapter.createMessage?.(
      {
        systemPrompt: 'Be brief.',
        maxTokens: 30,
        stopSequences: ['END'],
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Look:' },
              { type: 'inlineData', mimeType: 'image/png', data: 'iVBO' },
            ],
          },
        ],
      },
      {},
    );
    expect(result).toEqual({ model: 'claude-test-0', text: 'Brief.', stopReason: 'stopSequence' });
    expect(bodies.at(-1)).toEqual({
      model: 'claude-test',
      max_tokens: 30,
      system: 'Be brief.',
      stop_sequences: ['END'],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
          ],
        },
      ],
    });
  });

  it('fails with EMPTY_SAMPLING_RESPONSE when no text comes back', async () => {
    reply = {
      id: 'msg_2',
      type: 'message',
      role: 'assistant',
      model: 'm',
      stop_reason: 'refusal',
      stop_sequence: null,
      content: [],
      usage: { input_tokens: 1, output_tokens: 0 },
    };
    const adapter = createAnthropicAdapter({ sampling: { client, model: 'claude-test' } });
    const error = await adapter
      .createMessage?.({ maxTokens: 5, messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }, {})
      .catch((e: unknown) => e);
    expect(AdapterError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'EMPTY_SAMPLING_RESPONSE', provider: 'anthropic', finishReason: 'refusal' });
  });
});
