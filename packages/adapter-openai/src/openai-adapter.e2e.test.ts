// End to end: openai client → msw (OpenAI API) → McpToolHost → real stdio MCP server → next request.
import { createFixtureHost, isPng } from '@toolhost-internal/test-support';
import type { ConfirmationRequest, ModelAdapter } from '@toolhost/contract';
import type { McpToolHost } from '@toolhost/host';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';
import { createOpenAIResponsesAdapter } from './create-openai-responses-adapter.js';

const chatBodies: Record<string, unknown>[] = [];
const responsesBodies: Record<string, unknown>[] = [];

const api = setupServer(
  http.post('https://api.openai.com/v1/chat/completions', async ({ request }) => {
    chatBodies.push((await request.json()) as Record<string, unknown>);
    const message =
      chatBodies.length === 1
        ? {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'mixed-content', arguments: '{}' } }],
          }
        : { role: 'assistant', content: 'I see a one-pixel image.' };
    const finish = chatBodies.length === 1 ? 'tool_calls' : 'stop';
    return HttpResponse.json({
      id: `chatcmpl-${chatBodies.length}`,
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: [{ index: 0, finish_reason: finish, logprobs: null, message }],
    });
  }),
  http.post('https://api.openai.com/v1/responses', async ({ request }) => {
    responsesBodies.push((await request.json()) as Record<string, unknown>);
    const output =
      responsesBodies.length === 1
        ? [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'mixed-content', arguments: '{}', status: 'completed' }]
        : [
            {
              type: 'message',
              id: 'msg_1',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'I see a one-pixel image.', annotations: [] }],
            },
          ];
    return HttpResponse.json({ id: `resp_${responsesBodies.length}`, object: 'response', model: 'gpt-test', status: 'completed', output });
  }),
);

let confirmations: ConfirmationRequest[] = [];

async function createHost<TTool, TResponse, TToolResults>(
  adapter: ModelAdapter<TTool, TResponse, TToolResults>,
): Promise<McpToolHost<TTool, TResponse, TToolResults>> {
  const fixture = await createFixtureHost(adapter);
  // Each test creates its own host; its checks read that host's confirmations.
  confirmations = fixture.confirmations;
  return fixture.host;
}

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterAll(() => api.close());

describe('OpenAI adapters end to end', () => {
  it('Chat Completions: the next request carries a tool message and a user message with the image', async () => {
    const host = await createHost(createOpenAIChatAdapter());
    try {
      const client = new OpenAI({ apiKey: 'test-key', maxRetries: 0 });
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Show me everything.' }];
      const tools = host.listTools();
      const first = await client.chat.completions.create({ model: 'gpt-test', messages, tools });
      expect(chatBodies[0]?.['tools']).toContainEqual(
        expect.objectContaining({ type: 'function', function: expect.objectContaining({ name: 'mixed-content', strict: true }) }),
      );

      const fail = (chatBodies[0]?.['tools'] as { function: { name: string; parameters: unknown } }[]).find(
        (t) => t.function.name === 'fail',
      );
      // The optional `reason` becomes required-and-nullable in strict mode.
      expect(fail?.function.parameters).toMatchObject({
        additionalProperties: false,
        required: ['reason'],
        properties: { reason: { type: ['string', 'null'] } },
      });

      const handled = await host.handleModelResponse(first);
      expect(confirmations.at(-1)?.mcpDetails).toMatchObject({ serverName: 'fixture', toolName: 'mixed-content' });
      messages.push(first.choices[0]!.message, ...(handled.toolResults ?? []));
      const second = await client.chat.completions.create({ model: 'gpt-test', messages, tools });
      expect(second.choices[0]?.message.content).toBe('I see a one-pixel image.');

      const sent = chatBodies[1]?.['messages'] as Record<string, unknown>[];
      expect(sent.map((message) => message['role'])).toEqual(['user', 'assistant', 'tool', 'user']);
      expect(sent[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
      expect(String(sent[2]?.['content'])).toContain('first text block');
      expect(String(sent[2]?.['content'])).toContain('application/octet-stream data, which this model cannot receive');
      const media = sent[3]?.['content'] as Record<string, Record<string, string>>[];
      expect(media.map((part) => part['type'])).toEqual(['text', 'image_url', 'input_audio']);
      const url = media[1]?.['image_url']?.['url'] ?? '';
      expect(url.startsWith('data:image/png;base64,')).toBe(true);
      expect(isPng(url.slice('data:image/png;base64,'.length))).toBe(true);
      expect(media[2]?.['input_audio']).toMatchObject({ format: 'wav' });
    } finally {
      await host.close();
    }
  });

  it('Responses: the next request carries a function_call_output with an input_image', async () => {
    const host = await createHost(createOpenAIResponsesAdapter());
    try {
      const client = new OpenAI({ apiKey: 'test-key', maxRetries: 0 });
      const input: ResponseInputItem[] = [{ role: 'user', content: 'Show me everything.' }];
      const tools = host.listTools();
      const first = await client.responses.create({ model: 'gpt-test', input, tools });
      expect(responsesBodies[0]?.['tools']).toContainEqual(expect.objectContaining({ type: 'function', name: 'mixed-content' }));

      const handled = await host.handleModelResponse(first);
      expect(handled.outcomes[0]?.isError).toBe(false);
      input.push(...(first.output as ResponseInputItem[]), ...(handled.toolResults ?? []));
      const second = await client.responses.create({ model: 'gpt-test', input, tools });
      expect(second.output_text).toBe('I see a one-pixel image.');

      const sent = responsesBodies[1]?.['input'] as Record<string, unknown>[];
      const output = sent.find((item) => item['type'] === 'function_call_output');
      expect(output).toMatchObject({ call_id: 'call_1' });
      const items = output?.['output'] as Record<string, string>[];
      expect(items.map((item) => item['type'])).toEqual(['input_text', 'input_image']);
      expect(items[0]?.['text']).toContain('second text block');
      expect(items[0]?.['text']).toContain('audio/wav data, which this model cannot receive');
      expect(isPng((items[1]?.['image_url'] ?? '').replace('data:image/png;base64,', ''))).toBe(true);
    } finally {
      await host.close();
    }
  });
});
