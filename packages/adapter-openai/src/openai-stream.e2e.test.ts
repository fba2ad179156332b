// End to end: openai streaming (chat.completions.create({ stream: true }), responses.stream,
// responses.create({ stream: true })) → msw SSE in OpenAI's wire format → adapter.collectStream →
// McpToolHost → real stdio MCP server → next request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFixtureHost, sseResponse, sseText, type SseEvent } from '@toolhost-internal/test-support';
import { AdapterError, type ConfirmationRequest, type ModelAdapter, type ModelStreamEvent } from '@toolhost/contract';
import type { McpToolHost } from '@toolhost/host';
import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';
import { createOpenAIResponsesAdapter } from './create-openai-responses-adapter.js';

/** What the next request gets: SSE events and how to cut the body. */
interface Reply {
  readonly events: SseEvent[];
  readonly chunkBytes?: number;
}

const chatBodies: Record<string, unknown>[] = [];
const responsesBodies: Record<string, unknown>[] = [];
const chatReplies: Reply[] = [];
const responsesReplies: Reply[] = [];

const api = setupServer(
  http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()), // the one test that needs a real server
  http.post('https://api.openai.com/v1/chat/completions', async ({ request }) => {
    chatBodies.push((await request.json()) as Record<string, unknown>);
    const reply = chatReplies.shift();
    if (!reply) throw new Error('No streamed Chat Completions reply queued.');
    return sseResponse(reply.events, { chunkBytes: reply.chunkBytes });
  }),
  http.post('https://api.openai.com/v1/responses', async ({ request }) => {
    responsesBodies.push((await request.json()) as Record<string, unknown>);
    const reply = responsesReplies.shift();
    if (!reply) throw new Error('No streamed Responses reply queued.');
    return sseResponse(reply.events, { chunkBytes: reply.chunkBytes });
  }),
);

// --- Chat Completions wire format: `data: <chunk>` lines, then `data: [DONE]` --------------------

type ToolCallDelta = { index: number; id?: string; type?: 'function'; function?: { name?: string; arguments?: string } };

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): SseEvent {
  return {
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'gpt-test',
      system_fingerprint: 'fp_1',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    },
  };
}
const toolDelta = (...toolCalls: ToolCallDelta[]): SseEvent => chunk({ tool_calls: toolCalls });
const usageChunk: SseEvent = {
  data: {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-test',
    choices: [],
    usage: { prompt_tokens: 20, completion_tokens: 9, total_tokens: 29 },
  },
};
const DONE: SseEvent = { data: '[DONE]' };

function chatText(text: string): Reply {
  return { events: [chunk({ role: 'assistant', content: '' }), chunk({ content: text }), chunk({}, 'stop'), DONE] };
}

// --- Responses wire format: `event: <type>` + `data: <event>`, numbered ---------------------------

function responsesEvents(events: Array<Record<string, unknown> & { type: string }>): SseEvent[] {
  return events.map((data, sequence_number) => ({ event: data.type, data: { ...data, sequence_number } }));
}

function responseObject(id: string, status: string, output: unknown[]): Record<string, unknown> {
  return {
    id,
    object: 'response',
    created_at: 1,
    model: 'gpt-test',
    status,
    output,
    error: null,
    incomplete_details: null,
    instructions: null,
    metadata: {},
    parallel_tool_calls: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
  };
}

const functionItem = (id: string, callId: string, name: string, args = '', status = 'in_progress'): Record<string, unknown> => ({
  type: 'function_call',
  id,
  call_id: callId,
  name,
  arguments: args,
  status,
});
const argsDelta = (outputIndex: number, itemId: string, delta: string): Record<string, unknown> & { type: string } => ({
  type: 'response.function_call_arguments.delta',
  output_index: outputIndex,
  item_id: itemId,
  delta,
});

function responsesText(id: string, text: string): Reply {
  const message = {
    type: 'message',
    id: 'msg_t',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
  return {
    events: responsesEvents([
      { type: 'response.created', response: responseObject(id, 'in_progress', []) },
      { type: 'response.output_item.added', output_index: 0, item: { ...message, status: 'in_progress', content: [] } },
      {
        type: 'response.content_part.added',
        output_index: 0,
        item_id: 'msg_t',
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      },
      { type: 'response.output_text.delta', output_index: 0, item_id: 'msg_t', content_index: 0, delta: text, logprobs: [] },
      { type: 'response.output_item.done', output_index: 0, item: message },
      { type: 'response.completed', response: responseObject(id, 'completed', [message]) },
    ]),
  };
}

/** Every UTF-16 code unit of `text` as its own fragment (splits escapes and surrogate pairs). */
const oneByOne = (text: string): string[] => Array.from({ length: text.length }, (_, i) => text.charAt(i));

const ECHO_ARGS = '{"message": "h\\u00e9llo \\"w\u00f6rld\\" \ud83c\udf0d"}';
const ECHO_MESSAGE = 'h\u00e9llo "w\u00f6rld" \ud83c\udf0d';

let confirmations: ConfirmationRequest[] = [];

async function createHost<TTool, TResponse, TToolResults>(
  adapter: ModelAdapter<TTool, TResponse, TToolResults>,
): Promise<McpToolHost<TTool, TResponse, TToolResults>> {
  const fixture = await createFixtureHost(adapter);
  confirmations = fixture.confirmations;
  return fixture.host;
}

const client = (): OpenAI => new OpenAI({ apiKey: 'test-key', maxRetries: 0 });

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  chatReplies.length = 0;
  responsesReplies.length = 0;
});
afterAll(() => api.close());

describe('OpenAI Chat Completions: streamed tool calls', () => {
  it('assembles interleaved calls split everywhere, runs them (strict nulls removed) and sends the turn back', async () => {
    const adapter = createOpenAIChatAdapter();
    const host = await createHost(adapter);
    try {
      const echoPieces = oneByOne(ECHO_ARGS);
      const addPieces = ['{"a"', ': 2', ', "b":', ' 3}'];
      const interleaved: SseEvent[] = [];
      for (let i = 0; i < echoPieces.length; i++) {
        interleaved.push(toolDelta({ index: 0, function: { arguments: echoPieces[i] } }));
        const add = addPieces[i];
        if (add) interleaved.push(toolDelta({ index: 1, function: { arguments: add } }));
      }
      chatReplies.push(
        {
          chunkBytes: 11,
          events: [
            chunk({ role: 'assistant', content: '' }),
            chunk({ content: 'Running ' }),
            chunk({ content: 'three tools.' }),
            toolDelta(
              { index: 0, id: 'call_echo', type: 'function', function: { name: 'echo', arguments: '' } },
              { index: 1, id: 'call_add', type: 'function', function: { name: 'add', arguments: '' } },
            ),
            ...interleaved,
            toolDelta({ index: 2, id: 'call_fail', type: 'function', function: { name: 'fail', arguments: '{"reason": null}' } }),
            chunk({}, 'tool_calls'),
            usageChunk,
            DONE,
          ],
        },
        chatText('All three ran.'),
      );
      const openai = client();
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Echo, add and fail.' }];
      const tools = host.listTools();
      const events: ModelStreamEvent[] = [];

      const stream = await openai.chat.completions.create({
        model: 'gpt-test',
        messages,
        tools,
        stream: true,
        stream_options: { include_usage: true },
      });
      const completion = await adapter.collectStream(stream, { onEvent: (event) => events.push(event) });

      expect(events.filter((e) => e.type === 'text-delta').map((e) => e.text)).toEqual(['Running ', 'three tools.']);
      expect(events.filter((e) => e.type === 'tool-call-start').map((e) => [e.index, e.id, e.name])).toEqual([
        [0, 'call_echo', 'echo'],
        [1, 'call_add', 'add'],
        [2, 'call_fail', 'fail'],
      ]);
      expect(events.flatMap((e) => (e.type === 'tool-call-delta' && e.index === 0 ? [e.argumentsDelta] : [])).join('')).toBe(ECHO_ARGS);
      expect(events.filter((e) => e.type === 'tool-call-end').map((e) => e.call)).toEqual([
        { id: 'call_echo', name: 'echo', arguments: { message: ECHO_MESSAGE } },
        { id: 'call_add', name: 'add', arguments: { a: 2, b: 3 } },
        { id: 'call_fail', name: 'fail', arguments: { reason: null } }, // as the model sent it
      ]);
      expect(completion).toMatchObject({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: 'gpt-test',
        system_fingerprint: 'fp_1',
        usage: { total_tokens: 29 },
        choices: [{ index: 0, finish_reason: 'tool_calls' }],
      });
      const message = completion.choices[0]!.message;
      expect(message.content).toBe('Running three tools.');
      expect(message.tool_calls).toEqual([
        { id: 'call_echo', type: 'function', function: { name: 'echo', arguments: ECHO_ARGS } },
        { id: 'call_add', type: 'function', function: { name: 'add', arguments: '{"a": 2, "b": 3}' } },
        { id: 'call_fail', type: 'function', function: { name: 'fail', arguments: '{"reason": null}' } },
      ]);

      const handled = await host.handleModelResponse(completion);
      expect(confirmations.map((c) => c.mcpDetails?.toolName)).toEqual(['echo', 'add', 'fail']);
      expect(handled.outcomes.map((o) => [o.call.id, o.isError, o.parts[0]])).toEqual([
        ['call_echo', false, { type: 'text', text: ECHO_MESSAGE }],
        ['call_add', false, { type: 'text', text: '5' }],
        ['call_fail', true, { type: 'text', text: expect.stringContaining('the fail tool failed') }],
      ]);
      // `reason: null` was removed before the server saw it (its schema takes a string or nothing), so the tool used its default.
      expect(handled.outcomes[2]?.call.arguments).toEqual({});

      messages.push(message, ...(handled.toolResults ?? []));
      const second = await adapter.collectStream(
        await openai.chat.completions.create({ model: 'gpt-test', messages, tools, stream: true }),
      );
      expect(second.choices[0]?.message.content).toBe('All three ran.');
      expect((await host.handleModelResponse(second)).toolResults).toBeUndefined();
      const sent = chatBodies.at(-1)?.['messages'] as Array<Record<string, unknown>>;
      expect(sent.map((m) => m['role'])).toEqual(['user', 'assistant', 'tool', 'tool', 'tool']);
      expect(sent[1]).toMatchObject({ role: 'assistant', content: 'Running three tools.', tool_calls: message.tool_calls });
      expect(sent.slice(2).map((m) => m['tool_call_id'])).toEqual(['call_echo', 'call_add', 'call_fail']);
    } finally {
      await host.close();
    }
  });

  it('fails with INVALID_TOOL_ARGUMENTS naming the tool when the assembled arguments are not JSON', async () => {
    const adapter = createOpenAIChatAdapter();
    chatReplies.push({
      events: [
        toolDelta({ index: 0, id: 'call_bad', type: 'function', function: { name: 'echo', arguments: '{"message": ' } }),
        toolDelta({ index: 0, function: { arguments: '"cut' } }),
        chunk({}, 'length'),
        DONE,
      ],
    });
    const stream = await client().chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }], stream: true });
    const error = await adapter.collectStream(stream).catch((e: unknown) => e);
    expect(AdapterError.isInstance(error) && error.code).toBe('INVALID_TOOL_ARGUMENTS');
    expect(error).toMatchObject({ provider: 'openai', toolName: 'echo', callId: 'call_bad' });
    expect((error as Error).message).toContain("tool 'echo'");
  });

  it('stops at maxArgumentsLength with TOOL_ARGUMENTS_TOO_LARGE, and calls a stream without finish_reason incomplete', async () => {
    const adapter = createOpenAIChatAdapter();
    chatReplies.push(
      {
        events: [
          toolDelta({ index: 0, id: 'call_big', type: 'function', function: { name: 'echo', arguments: '{"message": "' } }),
          ...Array.from({ length: 50 }, () => toolDelta({ index: 0, function: { arguments: 'x'.repeat(100) } })),
          toolDelta({ index: 0, function: { arguments: '"}' } }),
          chunk({}, 'tool_calls'),
          DONE,
        ],
      },
      { events: [toolDelta({ index: 0, id: 'call_cut', type: 'function', function: { name: 'add', arguments: '{"a": 1, "b": 2}' } })] },
    );
    const openai = client();
    const big = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }], stream: true });
    const tooLarge = await adapter.collectStream(big, { maxArgumentsLength: 1000 }).catch((e: unknown) => e);
    expect(AdapterError.isInstance(tooLarge) && tooLarge.code).toBe('TOOL_ARGUMENTS_TOO_LARGE');
    expect(tooLarge).toMatchObject({ toolName: 'echo', callId: 'call_big' });

    const cut = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'x' }], stream: true });
    const incomplete = await adapter.collectStream(cut).catch((e: unknown) => e);
    expect(AdapterError.isInstance(incomplete) && incomplete.code).toBe('INCOMPLETE_STREAM');
    expect(incomplete).toMatchObject({ toolName: 'add', callId: 'call_cut' });
    expect((incomplete as Error).message).toContain('finish_reason');
  });
  it('a request aborted mid-stream (which the SDK ends quietly) fails with INCOMPLETE_STREAM', async () => {
    // msw cannot abort a response body it is still serving, so this one comes from a real server on
    // loopback: it sends the start of a tool call, then nothing more until the client goes away.
    let closed!: () => void;
    const clientGone = new Promise<void>((resolve) => (closed = resolve));
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(sseText([toolDelta({ index: 0, id: 'call_a', type: 'function', function: { name: 'add', arguments: '{"a": 1' } })]));
      request.on('close', () => closed());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const openai = new OpenAI({ apiKey: 'test-key', maxRetries: 0, baseURL: `http://127.0.0.1:${port}/v1` });
      const controller = new AbortController();
      const stream = await openai.chat.completions.create(
        { model: 'gpt-test', messages: [{ role: 'user', content: 'x' }], stream: true },
        { signal: controller.signal },
      );
      const error = await createOpenAIChatAdapter()
        .collectStream(stream, { onEvent: (event) => event.type === 'tool-call-start' && controller.abort() })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'INCOMPLETE_STREAM', toolName: 'add', callId: 'call_a' });
      await clientGone; // the HTTP request was really given up
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('OpenAI Responses: streamed tool calls', () => {
  it('responses.stream: text and two interleaved calls are assembled, run, and sent back as input', async () => {
    const adapter = createOpenAIResponsesAdapter();
    const host = await createHost(adapter);
    try {
      const message = {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: 'Checking now.', annotations: [] }],
      };
      const echoDone = functionItem('fc_echo', 'call_echo', 'echo', ECHO_ARGS, 'completed');
      const addDone = functionItem('fc_add', 'call_add', 'add', '{"a": 4, "b": 5}', 'completed');
      const echoPieces = oneByOne(ECHO_ARGS);
      const addPieces = ['{"a": 4', ', "b": 5}'];
      const interleaved: Array<Record<string, unknown> & { type: string }> = [];
      for (let i = 0; i < echoPieces.length; i++) {
        interleaved.push(argsDelta(1, 'fc_echo', echoPieces[i]!));
        const add = addPieces[i];
        if (add) interleaved.push(argsDelta(2, 'fc_add', add));
      }
      responsesReplies.push(
        {
          chunkBytes: 13,
          events: responsesEvents([
            { type: 'response.created', response: responseObject('resp_1', 'in_progress', []) },
            { type: 'response.in_progress', response: responseObject('resp_1', 'in_progress', []) },
            { type: 'response.output_item.added', output_index: 0, item: { ...message, status: 'in_progress', content: [] } },
            {
              type: 'response.content_part.added',
              output_index: 0,
              item_id: 'msg_1',
              content_index: 0,
              part: { type: 'output_text', text: '', annotations: [] },
            },
            { type: 'response.output_text.delta', output_index: 0, item_id: 'msg_1', content_index: 0, delta: 'Checking', logprobs: [] },
            { type: 'response.output_text.delta', output_index: 0, item_id: 'msg_1', content_index: 0, delta: ' now.', logprobs: [] },
            { type: 'response.output_text.done', output_index: 0, item_id: 'msg_1', content_index: 0, text: 'Checking now.', logprobs: [] },
            { type: 'response.content_part.done', output_index: 0, item_id: 'msg_1', content_index: 0, part: message.content[0] },
            { type: 'response.output_item.done', output_index: 0, item: message },
            { type: 'response.output_item.added', output_index: 1, item: functionItem('fc_echo', 'call_echo', 'echo') },
            { type: 'response.output_item.added', output_index: 2, item: functionItem('fc_add', 'call_add', 'add') },
            ...interleaved,
            {
              type: 'response.function_call_arguments.done',
              output_index: 2,
              item_id: 'fc_add',
              name: 'add',
              arguments: '{"a": 4, "b": 5}',
            },
            { type: 'response.output_item.done', output_index: 2, item: addDone },
            { type: 'response.function_call_arguments.done', output_index: 1, item_id: 'fc_echo', name: 'echo', arguments: ECHO_ARGS },
            { type: 'response.output_item.done', output_index: 1, item: echoDone },
            { type: 'response.completed', response: responseObject('resp_1', 'completed', [message, echoDone, addDone]) },
          ]),
        },
        responsesText('resp_2', 'Echoed and added.'),
      );
      const openai = client();
      const input: ResponseInputItem[] = [{ role: 'user', content: 'Echo, then add 4 and 5.' }];
      const tools = host.listTools();
      const events: ModelStreamEvent[] = [];

      const response = await adapter.collectStream(openai.responses.stream({ model: 'gpt-test', input, tools }), {
        onEvent: (event) => events.push(event),
      });

      expect(events.filter((e) => e.type === 'text-delta').map((e) => e.text)).toEqual(['Checking', ' now.']);
      expect(events.filter((e) => e.type === 'tool-call-end').map((e) => [e.index, e.call])).toEqual([
        [1, { id: 'call_add', name: 'add', arguments: { a: 4, b: 5 } }],
        [0, { id: 'call_echo', name: 'echo', arguments: { message: ECHO_MESSAGE } }],
      ]);
      expect(response).toMatchObject({ id: 'resp_1', status: 'completed', output_text: 'Checking now.' });
      expect(response.output).toEqual([message, echoDone, addDone]);

      const handled = await host.handleModelResponse(response);
      expect(confirmations.map((c) => c.mcpDetails?.toolName)).toEqual(['echo', 'add']);
      expect(handled.outcomes.map((o) => o.parts[0])).toEqual([
        { type: 'text', text: ECHO_MESSAGE },
        { type: 'text', text: '9' },
      ]);

      input.push(...(response.output as ResponseInputItem[]), ...(handled.toolResults ?? []));
      const second = await adapter.collectStream(openai.responses.stream({ model: 'gpt-test', input, tools }));
      expect(second.output_text).toBe('Echoed and added.');
      const sent = responsesBodies.at(-1)?.['input'] as Array<Record<string, unknown>>;
      expect(sent.filter((item) => item['type'] === 'function_call').map((item) => [item['call_id'], item['arguments']])).toEqual([
        ['call_echo', ECHO_ARGS],
        ['call_add', '{"a": 4, "b": 5}'],
      ]);
      expect(sent.filter((item) => item['type'] === 'function_call_output').map((item) => item['call_id'])).toEqual([
        'call_echo',
        'call_add',
      ]);
    } finally {
      await host.close();
    }
  });

  it('responses.create({ stream: true }): calls come from the events even when response.completed carries no output', async () => {
    const adapter = createOpenAIResponsesAdapter();
    const host = await createHost(adapter);
    try {
      responsesReplies.push({
        events: responsesEvents([
          { type: 'response.created', response: responseObject('resp_3', 'in_progress', []) },
          { type: 'response.output_item.added', output_index: 0, item: functionItem('fc_1', 'call_1', 'add') },
          argsDelta(0, 'fc_1', '{"a": 20,'),
          argsDelta(0, 'fc_1', ' "b": 22}'),
          { type: 'response.completed', response: responseObject('resp_3', 'completed', []) },
        ]),
      });
      const stream = await client().responses.create({ model: 'gpt-test', input: 'add', tools: host.listTools(), stream: true });
      const response = await adapter.collectStream(stream);
      expect(response.output).toEqual([functionItem('fc_1', 'call_1', 'add', '{"a": 20, "b": 22}')]);
      const handled = await host.handleModelResponse(response);
      expect(handled.outcomes[0]?.parts[0]).toEqual({ type: 'text', text: '42' });
    } finally {
      await host.close();
    }
  });

  it('a failed response, an error event, malformed arguments and a cut stream each fail without running a tool', async () => {
    const adapter = createOpenAIResponsesAdapter();
    const openai = client();
    const run = async (events: Array<Record<string, unknown> & { type: string }>): Promise<unknown> => {
      responsesReplies.push({ events: responsesEvents(events) });
      const stream = await openai.responses.create({ model: 'gpt-test', input: 'x', stream: true });
      return await adapter.collectStream(stream).catch((e: unknown) => e);
    };
    const created = { type: 'response.created', response: responseObject('resp_4', 'in_progress', []) };
    const added = { type: 'response.output_item.added', output_index: 0, item: functionItem('fc_9', 'call_9', 'echo') };

    const failed = await run([
      created,
      added,
      {
        type: 'response.failed',
        response: { ...responseObject('resp_4', 'failed', []), error: { code: 'server_error', message: 'The model crashed.' } },
      },
    ]);
    expect(failed).toMatchObject({ code: 'INCOMPLETE_STREAM', provider: 'openai' });
    expect((failed as Error).message).toContain('The model crashed.');

    const errored = await run([created, { type: 'error', code: 'rate_limit_exceeded', message: 'Slow down.', param: null }]);
    expect(errored).toMatchObject({ code: 'INCOMPLETE_STREAM' });
    expect((errored as Error).message).toContain('Slow down.');

    const malformed = await run([
      created,
      added,
      argsDelta(0, 'fc_9', '{"message": "unterminated'),
      {
        type: 'response.function_call_arguments.done',
        output_index: 0,
        item_id: 'fc_9',
        name: 'echo',
        arguments: '{"message": "unterminated',
      },
    ]);
    expect(malformed).toMatchObject({ code: 'INVALID_TOOL_ARGUMENTS', toolName: 'echo', callId: 'call_9' });

    const cut = await run([created, added, argsDelta(0, 'fc_9', '{"message": "hi"}')]);
    expect(cut).toMatchObject({ code: 'INCOMPLETE_STREAM', toolName: 'echo', callId: 'call_9' });
    expect((cut as Error).message).toContain('response.completed');
  });
});
