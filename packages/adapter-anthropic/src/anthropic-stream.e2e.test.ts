// End to end: @anthropic-ai/sdk streaming (messages.stream, messages.create({ stream: true })) → msw SSE
// in the Messages wire format → adapter.collectStream → McpToolHost → real stdio MCP server → next request.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, Message, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import { createFixtureHost, sseResponse, sseText, type SseEvent } from '@toolhost-internal/test-support';
import { AdapterError, type ConfirmationRequest, type ModelStreamEvent } from '@toolhost/contract';
import type { McpToolHost } from '@toolhost/host';
import { http, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicAdapter, type AnthropicAdapter } from './create-anthropic-adapter.js';

/** What the next request gets: a list of SSE events and how to cut the body. */
interface Reply {
  readonly events: SseEvent[];
  readonly chunkBytes?: number;
}

const bodies: Record<string, unknown>[] = [];
const replies: Reply[] = [];

const api = setupServer(
  http.all(/^http:\/\/127\.0\.0\.1:\d+\//, () => passthrough()), // the one test that needs a real server
  http.post('https://api.anthropic.com/v1/messages', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    const reply = replies.shift();
    if (!reply) throw new Error('No streamed reply queued for this request.');
    return sseResponse(reply.events, { chunkBytes: reply.chunkBytes });
  }),
);

/** One Messages SSE event: the `event:` name is the data's `type`, as the API sends it. */
function ev(data: Record<string, unknown> & { type: string }): SseEvent {
  return { event: data.type, data };
}

function messageStart(id: string): SseEvent {
  return ev({
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 1 },
    },
  });
}

function toolUseStart(index: number, id: string, name: string): SseEvent {
  return ev({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name, input: {} } });
}

function jsonDelta(index: number, partial_json: string): SseEvent {
  return ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
}

const stop = (index: number): SseEvent => ev({ type: 'content_block_stop', index });

function messageEnd(stopReason: string, outputTokens = 42): SseEvent[] {
  return [
    ev({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: outputTokens } }),
    ev({ type: 'message_stop' }),
  ];
}

function textReply(id: string, text: string): Reply {
  return {
    events: [
      messageStart(id),
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }),
      stop(0),
      ...messageEnd('end_turn', 3),
    ],
  };
}

/** Every UTF-16 code unit of `text` as its own fragment (splits escapes and surrogate pairs). */
const oneByOne = (text: string): string[] => Array.from({ length: text.length }, (_, i) => text.charAt(i));

const ECHO_ARGS = '{"message": "h\\u00e9llo \\"w\u00f6rld\\" \ud83c\udf0d"}';
const ECHO_MESSAGE = 'h\u00e9llo "w\u00f6rld" \ud83c\udf0d';

let adapter: AnthropicAdapter;
let host: McpToolHost<Tool, Message | readonly ContentBlock[], MessageParam>;
let confirmations: ConfirmationRequest[];

beforeAll(async () => {
  api.listen({ onUnhandledRequest: 'error' });
  adapter = createAnthropicAdapter();
  ({ host, confirmations } = await createFixtureHost(adapter));
});

afterEach(() => {
  replies.length = 0;
});

afterAll(async () => {
  await host?.close();
  api.close();
});

const client = (): Anthropic => new Anthropic({ apiKey: 'test-key', maxRetries: 0 });

describe('Anthropic adapter: streamed tool calls', () => {
  it('messages.stream: thinking, text and two tool calls with JSON split everywhere run on the server, and the turn goes back', async () => {
    replies.push(
      {
        chunkBytes: 7, // the SDK's SSE parser reassembles events cut every 7 bytes
        events: [
          messageStart('msg_1'),
          ev({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
          ev({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Echo, then add.' } }),
          ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-abc' } }),
          stop(0),
          ev({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
          ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Let me ' } }),
          ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'check.' } }),
          stop(1),
          toolUseStart(2, 'toolu_echo', 'echo'),
          ...oneByOne(ECHO_ARGS).map((fragment) => jsonDelta(2, fragment)),
          stop(2),
          toolUseStart(3, 'toolu_add', 'add'),
          jsonDelta(3, ''),
          jsonDelta(3, '{"a": 2'),
          jsonDelta(3, ', "b": 3}'),
          stop(3),
          ...messageEnd('tool_use'),
        ],
      },
      textReply('msg_2', 'Echoed and added.'),
    );
    const anthropic = client();
    const messages: MessageParam[] = [{ role: 'user', content: 'Echo hello, then add 2 and 3.' }];
    const tools = host.listTools();
    const events: ModelStreamEvent[] = [];

    const message = await adapter.collectStream(anthropic.messages.stream({ model: 'claude-test', max_tokens: 256, messages, tools }), {
      onEvent: (event) => events.push(event),
    });

    expect(events.filter((e) => e.type === 'reasoning-delta')).toEqual([{ type: 'reasoning-delta', text: 'Echo, then add.' }]);
    expect(events.filter((e) => e.type === 'text-delta').map((e) => e.text)).toEqual(['Let me ', 'check.']);
    expect(events.filter((e) => e.type === 'tool-call-start')).toEqual([
      { type: 'tool-call-start', index: 0, id: 'toolu_echo', name: 'echo' },
      { type: 'tool-call-start', index: 1, id: 'toolu_add', name: 'add' },
    ]);
    const echoText = events.flatMap((e) => (e.type === 'tool-call-delta' && e.index === 0 ? [e.argumentsDelta] : [])).join('');
    expect(echoText).toBe(ECHO_ARGS);
    expect(events.filter((e) => e.type === 'tool-call-end')).toEqual([
      { type: 'tool-call-end', index: 0, call: { id: 'toolu_echo', name: 'echo', arguments: { message: ECHO_MESSAGE } } },
      { type: 'tool-call-end', index: 1, call: { id: 'toolu_add', name: 'add', arguments: { a: 2, b: 3 } } },
    ]);
    expect(message).toMatchObject({
      id: 'msg_1',
      role: 'assistant',
      stop_reason: 'tool_use',
      usage: { input_tokens: 12, output_tokens: 42 },
    });
    expect(message.content).toEqual([
      { type: 'thinking', thinking: 'Echo, then add.', signature: 'sig-abc' },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: 'toolu_echo', name: 'echo', input: { message: ECHO_MESSAGE } },
      { type: 'tool_use', id: 'toolu_add', name: 'add', input: { a: 2, b: 3 } },
    ]);

    const before = confirmations.length;
    const handled = await host.handleModelResponse(message);
    expect(confirmations.slice(before).map((c) => c.mcpDetails?.toolName)).toEqual(['echo', 'add']);
    expect(handled.outcomes.map((o) => [o.call.id, o.isError, o.parts[0]])).toEqual([
      ['toolu_echo', false, { type: 'text', text: ECHO_MESSAGE }],
      ['toolu_add', false, { type: 'text', text: '5' }],
    ]);

    messages.push({ role: 'assistant', content: message.content }, handled.toolResults as MessageParam);
    const second = await adapter.collectStream(anthropic.messages.stream({ model: 'claude-test', max_tokens: 256, messages, tools }));
    expect(second.content).toEqual([{ type: 'text', text: 'Echoed and added.' }]);
    expect((await host.handleModelResponse(second)).toolResults).toBeUndefined();

    const sent = bodies.at(-1)?.['messages'] as Array<{ role: string; content: unknown }>;
    expect(sent[1]).toEqual({ role: 'assistant', content: message.content }); // thinking signature and inputs as assembled
    expect(sent[2]?.content).toMatchObject([
      { type: 'tool_result', tool_use_id: 'toolu_echo', content: [{ type: 'text', text: ECHO_MESSAGE }] },
      { type: 'tool_result', tool_use_id: 'toolu_add', content: [{ type: 'text', text: '5' }] },
    ]);
  });

  it('messages.create({ stream: true }): interleaved tool_use blocks are assembled by index, in content order', async () => {
    replies.push({
      events: [
        messageStart('msg_3'),
        toolUseStart(0, 'toolu_a', 'add'),
        toolUseStart(1, 'toolu_b', 'echo'),
        jsonDelta(1, '{"mess'),
        jsonDelta(0, '{"a": 1'),
        jsonDelta(1, 'age": "second"'),
        jsonDelta(0, '0, "b": 0.5'),
        jsonDelta(1, '}'),
        stop(1),
        jsonDelta(0, '}'),
        stop(0),
        ...messageEnd('tool_use'),
      ],
    });
    const stream = await client().messages.create({
      model: 'claude-test',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Both at once.' }],
      stream: true,
    });
    const message = await adapter.collectStream(stream);
    expect(message.content).toEqual([
      { type: 'tool_use', id: 'toolu_a', name: 'add', input: { a: 10, b: 0.5 } },
      { type: 'tool_use', id: 'toolu_b', name: 'echo', input: { message: 'second' } },
    ]);
    const handled = await host.handleModelResponse(message);
    expect(handled.outcomes.map((o) => o.parts[0])).toEqual([
      { type: 'text', text: '10.5' },
      { type: 'text', text: 'second' },
    ]);
  });

  it('malformed input JSON fails with INVALID_TOOL_ARGUMENTS naming the tool, and nothing runs', async () => {
    replies.push({
      events: [
        messageStart('msg_4'),
        toolUseStart(0, 'toolu_bad', 'echo'),
        jsonDelta(0, '{"message": "hi",'),
        jsonDelta(0, '}'),
        stop(0),
        ...messageEnd('tool_use'),
      ],
    });
    const before = confirmations.length;
    const stream = await client().messages.create({
      model: 'claude-test',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const error = await adapter.collectStream(stream).catch((e: unknown) => e);
    expect(AdapterError.isInstance(error) && error.code).toBe('INVALID_TOOL_ARGUMENTS');
    expect(error).toMatchObject({ provider: 'anthropic', toolName: 'echo', callId: 'toolu_bad' });
    expect((error as Error).message).toContain("tool 'echo'");
    expect(confirmations.length).toBe(before);
  });

  it('arguments past maxArgumentsLength stop the stream with TOOL_ARGUMENTS_TOO_LARGE naming the tool', async () => {
    const huge = `{"message": "${'x'.repeat(5000)}"}`;
    const events: ModelStreamEvent[] = [];
    replies.push({
      events: [
        messageStart('msg_5'),
        toolUseStart(0, 'toolu_big', 'echo'),
        ...(huge.match(/.{1,100}/g) ?? []).map((fragment) => jsonDelta(0, fragment)),
        stop(0),
        ...messageEnd('tool_use'),
      ],
    });
    const stream = await client().messages.create({
      model: 'claude-test',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const error = await adapter
      .collectStream(stream, { maxArgumentsLength: 1000, onEvent: (e) => events.push(e) })
      .catch((e: unknown) => e);
    expect(AdapterError.isInstance(error) && error.code).toBe('TOOL_ARGUMENTS_TOO_LARGE');
    expect(error).toMatchObject({ toolName: 'echo', callId: 'toolu_big' });
    expect((error as Error).message).toContain('1000 characters');
    // Reading stopped at the fragment that crossed the limit: 1000 / 100 fragments were delivered, no more.
    expect(events.filter((e) => e.type === 'tool-call-delta')).toHaveLength(10);
  });

  it('a stream cut inside a tool call fails with INCOMPLETE_STREAM naming the tool', async () => {
    replies.push({ events: [messageStart('msg_6'), toolUseStart(0, 'toolu_cut', 'add'), jsonDelta(0, '{"a": 1, "b": 2}')] });
    const stream = await client().messages.create({
      model: 'claude-test',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const error = await adapter.collectStream(stream).catch((e: unknown) => e);
    expect(AdapterError.isInstance(error) && error.code).toBe('INCOMPLETE_STREAM');
    expect(error).toMatchObject({ toolName: 'add', callId: 'toolu_cut' });
    expect((error as Error).message).toContain('message_stop');
  });

  it('a request aborted mid-stream (which the SDK ends quietly) fails with INCOMPLETE_STREAM, and nothing runs', async () => {
    // msw cannot abort a response body it is still serving, so this one comes from a real server on
    // loopback: it sends the start of a tool call, then nothing more until the client goes away.
    let closed!: () => void;
    const clientGone = new Promise<void>((resolve) => (closed = resolve));
    const server = createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(sseText([messageStart('msg_8'), toolUseStart(0, 'toolu_a', 'add'), jsonDelta(0, '{"a": 1')]));
      request.on('close', () => closed());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const anthropic = new Anthropic({ apiKey: 'test-key', maxRetries: 0, baseURL: `http://127.0.0.1:${port}` });
      const controller = new AbortController();
      const stream = await anthropic.messages.create(
        { model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: 'x' }], stream: true },
        { signal: controller.signal },
      );
      const before = confirmations.length;
      const error = await adapter
        .collectStream(stream, { onEvent: (event) => event.type === 'tool-call-delta' && controller.abort() })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'INCOMPLETE_STREAM', toolName: 'add', callId: 'toolu_a' });
      await clientGone; // the HTTP request was really given up
      expect(confirmations.length).toBe(before);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("an error event in the stream surfaces as the SDK's own APIError", async () => {
    replies.push({
      events: [
        messageStart('msg_7'),
        { event: 'error', data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      ],
    });
    const stream = await client().messages.create({
      model: 'claude-test',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const error = await adapter.collectStream(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIError);
    expect((error as Error).message).toContain('Overloaded');
  });
});
