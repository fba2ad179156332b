// End to end with a real provider package: `ai` + `@ai-sdk/openai` → msw (the OpenAI API on its
// real URL) → createAiSdkTools → McpToolHost → the basic MCP fixture server over stdio.
import { createOpenAI } from '@ai-sdk/openai';
import { isPng } from '@toolhost-internal/test-support';
import type { McpToolHost } from '@toolhost/host';
import { generateText, stepCountIs, streamText, type ModelMessage } from 'ai';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAiSdkTools } from './create-ai-sdk-tools.js';
import { fixtureHost, responseMessagesOf } from './scripted-model.test-helper.js';
import { toolApprovalResponse } from './tool-approval.js';

type Body = Record<string, unknown>;
const responsesBodies: Body[] = [];
const chatBodies: Body[] = [];

function sse(events: readonly unknown[]): HttpResponse<ReadableStream> {
  const encoder = new TextEncoder();
  const stream = new ReadableStream({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
      controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      controller.close();
    },
  });
  return new HttpResponse(stream, { headers: { 'content-type': 'text/event-stream' } });
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
}

const api = setupServer(
  http.post('https://api.openai.com/v1/responses', async ({ request }) => {
    responsesBodies.push((await request.json()) as Body);
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
    return HttpResponse.json({
      id: `resp_${responsesBodies.length}`,
      object: 'response',
      created_at: 0,
      model: 'gpt-test',
      status: 'completed',
      output,
      usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    });
  }),
  http.post('https://api.openai.com/v1/chat/completions', async ({ request }) => {
    chatBodies.push((await request.json()) as Body);
    if (chatBodies.length === 1) {
      return sse([
        chunk({
          role: 'assistant',
          content: null,
          tool_calls: [{ index: 0, id: 'call_s1', type: 'function', function: { name: 'echo', arguments: '' } }],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"message":' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"streamed hello"}' } }] }),
        chunk({}, 'tool_calls'),
      ]);
    }
    return sse([chunk({ role: 'assistant', content: 'It said ' }), chunk({ content: 'streamed hello.' }), chunk({}, 'stop')]);
  }),
);

const openai = createOpenAI({ apiKey: 'test-key' });
const hosts: McpToolHost[] = [];

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});
afterAll(() => api.close());

describe('createAiSdkTools with @ai-sdk/openai against the OpenAI API served by msw', () => {
  it('Responses API (generateText): declares the tools, asks for approval, runs the approved call and sends the image as input_image', async () => {
    const { host, updates } = await fixtureHost({ fixture: { behaviour: 'basic' } }, { deferConfirmations: true });
    hosts.push(host);
    const tools = createAiSdkTools(host);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Show me everything.' }];

    const first = await generateText({ model: openai('gpt-test'), tools, messages, stopWhen: stepCountIs(3) });
    expect(responsesBodies[0]?.['tools']).toContainEqual(
      expect.objectContaining({
        type: 'function',
        name: 'echo',
        description: 'Echoes back the message it is given.',
        parameters: expect.objectContaining({ type: 'object', required: ['message'] }),
      }),
    );
    const request = first.content.find((part) => part.type === 'tool-approval-request');
    expect(request?.toolCall).toMatchObject({ toolCallId: 'call_1', toolName: 'mixed-content' });
    expect(updates).toEqual([]);

    messages.push(...responseMessagesOf(first), {
      role: 'tool',
      content: [toolApprovalResponse({ approvalId: request!.approvalId, outcome: 'proceed_once' })],
    });
    const second = await generateText({ model: openai('gpt-test'), tools, messages, stopWhen: stepCountIs(3) });
    expect(second.text).toBe('I see a one-pixel image.');
    expect(updates.map((update) => update.status)).toEqual(['PENDING', 'EXECUTING', 'SUCCEEDED']);

    const input = responsesBodies[1]?.['input'] as Array<Record<string, unknown>>;
    const callOutput = input.find((item) => item['type'] === 'function_call_output');
    expect(callOutput?.['call_id']).toBe('call_1');
    const parts = callOutput?.['output'] as Array<Record<string, unknown>>;
    expect(parts.map((part) => part['type'])).toEqual(['input_text', 'input_image', 'input_file', 'input_file']);
    expect(parts[0]?.['text']).toMatch(/^first text block/);
    const imageUrl = String(parts[1]?.['image_url']);
    expect(imageUrl).toMatch(/^data:image\/png;base64,/);
    expect(isPng(imageUrl.slice('data:image/png;base64,'.length))).toBe(true);
    expect(parts[2]?.['file_data']).toMatch(/^data:audio\/wav;base64,/);
    expect(parts[3]).toMatchObject({ filename: 'blob', file_data: 'data:application/octet-stream;base64,AAECAw==' });
  });

  it('Chat Completions (streamText): a tool call streamed in pieces runs on a trusted server and its result goes back as a tool message', async () => {
    const { host } = await fixtureHost({ fixture: { behaviour: 'basic', trust: true } });
    hosts.push(host);
    const result = streamText({ model: openai.chat('gpt-test'), tools: createAiSdkTools(host), prompt: 'Echo.', stopWhen: stepCountIs(3) });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(await result.text).toBe('It said streamed hello.');
    expect(types).toContain('tool-result');
    expect(types).not.toContain('tool-approval-request');
    const messages = chatBodies[1]?.['messages'] as Array<Record<string, unknown>>;
    expect(messages).toContainEqual({ role: 'tool', tool_call_id: 'call_s1', content: 'streamed hello' });
  });
});
