// End to end: @google/genai generateContentStream → msw SSE in the Gemini (and Vertex AI) wire
// format → adapter.collectStream → McpToolHost → real stdio MCP server → next request.
import { GoogleGenAI, type Content, type FunctionDeclaration, type GenerateContentResponse } from '@google/genai';
import { createFixtureHost, sseResponse, sseText, type SseEvent } from '@toolhost-internal/test-support';
import { AdapterError, type ConfirmationRequest, type ModelStreamEvent } from '@toolhost/contract';
import type { McpToolHost } from '@toolhost/host';
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGeminiAdapter, type GeminiAdapter } from './create-gemini-adapter.js';

/** What the next request gets: the chunks (each one `data:` event) and how to cut the body, or raw body pieces. */
interface Reply {
  readonly chunks: unknown[];
  readonly chunkBytes?: number;
  readonly raw?: string[];
}

const bodies: Array<{ url: string; body: Record<string, unknown> }> = [];
const replies: Reply[] = [];

const STREAM_URL = /\/models\/gemini-test:streamGenerateContent$/; // msw matches without the query (?alt=sse)
const api = setupServer(
  // The Gemini API (generativelanguage.googleapis.com/v1beta) and Vertex AI express mode (aiplatform.googleapis.com).
  http.post(STREAM_URL, async ({ request }) => {
    bodies.push({ url: request.url, body: (await request.json()) as Record<string, unknown> });
    const reply = replies.shift();
    if (!reply) throw new Error('No streamed Gemini reply queued.');
    if (reply.raw) {
      const pieces = reply.raw.map((piece) => new TextEncoder().encode(piece));
      const body = new ReadableStream<Uint8Array>({
        pull: (controller) => void (pieces.length ? controller.enqueue(pieces.shift()!) : controller.close()),
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    }
    const events: SseEvent[] = reply.chunks.map((data) => ({ data }));
    return sseResponse(events, { chunkBytes: reply.chunkBytes });
  }),
);

const META = { modelVersion: 'gemini-test-001', responseId: 'resp-1' };

/** One streamed chunk: the parts of candidate 0, and its finishReason when it is the last. */
function chunk(parts: unknown[], finishReason?: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
    ...META,
    ...extra,
  };
}

const USAGE = { usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 29 } };
const ECHO_MESSAGE = 'h\u00e9llo "w\u00f6rld" \ud83c\udf0d';

let adapter: GeminiAdapter;
let host: McpToolHost<FunctionDeclaration, GenerateContentResponse | Content, Content>;
let confirmations: ConfirmationRequest[];

beforeAll(async () => {
  api.listen({ onUnhandledRequest: 'error' });
  adapter = createGeminiAdapter();
  ({ host, confirmations } = await createFixtureHost(adapter));
});

afterEach(() => {
  replies.length = 0;
});

afterAll(async () => {
  await host?.close();
  api.close();
});

const gemini = (): GoogleGenAI => new GoogleGenAI({ apiKey: 'test-key' });

describe('Gemini adapter: streamed tool calls', () => {
  it('generateContentStream: thoughts, text and two calls across chunks run on the server, and the turn goes back', async () => {
    replies.push(
      {
        chunkBytes: 9, // the SDK's SSE reader reassembles events cut every 9 bytes
        chunks: [
          chunk([{ text: 'Echo first, ', thought: true }]),
          chunk([{ text: 'then add.', thought: true }]),
          chunk([{ text: 'Let me ' }]),
          chunk([
            { text: 'check.' },
            { functionCall: { id: 'call-echo', name: 'echo', args: { message: ECHO_MESSAGE } }, thoughtSignature: 'sig-1' },
          ]),
          chunk([{ functionCall: { id: 'call-add', name: 'add', args: { a: 2, b: 3 } } }]),
          chunk([{ text: '' }], 'STOP', USAGE),
        ],
      },
      { chunks: [chunk([{ text: 'Echoed ' }]), chunk([{ text: 'and added.' }], 'STOP', USAGE)] },
    );
    const ai = gemini();
    const contents: Content[] = [{ role: 'user', parts: [{ text: 'Echo hello, then add 2 and 3.' }] }];
    const config = { tools: [{ functionDeclarations: host.listTools() }] };
    const events: ModelStreamEvent[] = [];

    const response = await adapter.collectStream(await ai.models.generateContentStream({ model: 'gemini-test', contents, config }), {
      onEvent: (event) => events.push(event),
    });

    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Echo first, ' },
      { type: 'reasoning-delta', text: 'then add.' },
      { type: 'text-delta', text: 'Let me ' },
      { type: 'text-delta', text: 'check.' },
      { type: 'tool-call-start', index: 0, id: 'call-echo', name: 'echo' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: JSON.stringify({ message: ECHO_MESSAGE }) },
      { type: 'tool-call-end', index: 0, call: { id: 'call-echo', name: 'echo', arguments: { message: ECHO_MESSAGE } } },
      { type: 'tool-call-start', index: 1, id: 'call-add', name: 'add' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"a":2,"b":3}' },
      { type: 'tool-call-end', index: 1, call: { id: 'call-add', name: 'add', arguments: { a: 2, b: 3 } } },
    ]);
    const modelTurn = response.candidates?.[0]?.content as Content;
    expect(modelTurn).toEqual({
      role: 'model',
      parts: [
        { text: 'Echo first, then add.', thought: true },
        { text: 'Let me check.' },
        { functionCall: { id: 'call-echo', name: 'echo', args: { message: ECHO_MESSAGE } }, thoughtSignature: 'sig-1' },
        { functionCall: { id: 'call-add', name: 'add', args: { a: 2, b: 3 } } },
      ],
    });
    expect(response.candidates?.[0]?.finishReason).toBe('STOP');
    expect(response).toMatchObject({ ...META, ...USAGE });
    // The SDK's own getters work on the assembled response.
    expect(response.functionCalls?.map((call) => call.name)).toEqual(['echo', 'add']);

    const before = confirmations.length;
    const handled = await host.handleModelResponse(response);
    expect(confirmations.slice(before).map((c) => c.mcpDetails?.toolName)).toEqual(['echo', 'add']);
    expect(handled.outcomes.map((o) => [o.call.id, o.isError, o.parts[0]])).toEqual([
      ['call-echo', false, { type: 'text', text: ECHO_MESSAGE }],
      ['call-add', false, { type: 'text', text: '5' }],
    ]);

    contents.push(modelTurn, handled.toolResults!);
    const second = await adapter.collectStream(await ai.models.generateContentStream({ model: 'gemini-test', contents, config }));
    expect(second.text).toBe('Echoed and added.');
    expect((await host.handleModelResponse(second)).toolResults).toBeUndefined();

    const sent = bodies.at(-1)?.body['contents'] as Content[];
    expect(sent[1]).toEqual(modelTurn); // thoughts and the thought signature go back as assembled
    expect(sent[2]?.parts?.map((part) => [part.functionResponse?.id, part.functionResponse?.name])).toEqual([
      ['call-echo', 'echo'],
      ['call-add', 'add'],
    ]);
  });

  it('Vertex AI streamFunctionCallArguments: typed partial arguments over many chunks become one call each', async () => {
    replies.push({
      chunks: [
        chunk([{ functionCall: { name: 'echo', willContinue: true }, thoughtSignature: 'sig-v' }]),
        chunk([
          {
            functionCall: { partialArgs: [{ jsonPath: '$.message', stringValue: 'h\u00e9llo ', willContinue: true }], willContinue: true },
          },
        ]),
        chunk([
          {
            functionCall: {
              partialArgs: [{ jsonPath: '$.message', stringValue: '"w\u00f6rld" ', willContinue: true }],
              willContinue: true,
            },
          },
        ]),
        chunk([
          {
            functionCall: { partialArgs: [{ jsonPath: '$.message', stringValue: '\ud83c\udf0d', willContinue: true }], willContinue: true },
          },
        ]),
        chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.message', stringValue: '' }], willContinue: true } }]),
        chunk([{ functionCall: { willContinue: true } }]),
        chunk([{ functionCall: {} }]),
        chunk([{ functionCall: { name: 'add', willContinue: true } }]),
        chunk([{ functionCall: { partialArgs: [{ jsonPath: '$.a', numberValue: 20 }], willContinue: true } }]),
        chunk([{ functionCall: { partialArgs: [{ jsonPath: "$['b']", numberValue: 22 }] } }]),
        chunk([{ text: '' }], 'STOP', USAGE),
      ],
    });
    const ai = new GoogleGenAI({ vertexai: true, apiKey: 'test-key' }); // Vertex AI express mode
    const events: ModelStreamEvent[] = [];
    const response = await adapter.collectStream(
      await ai.models.generateContentStream({
        model: 'gemini-test',
        contents: 'Echo, then add 20 and 22.',
        config: {
          tools: [{ functionDeclarations: host.listTools() }],
          toolConfig: { functionCallingConfig: { streamFunctionCallArguments: true } },
        },
      }),
      { onEvent: (event) => events.push(event) },
    );
    expect(bodies.at(-1)?.url).toContain('aiplatform.googleapis.com');
    expect(events.map((e) => e.type)).toEqual(['tool-call-start', 'tool-call-end', 'tool-call-start', 'tool-call-end']);
    expect(response.candidates?.[0]?.content?.parts).toEqual([
      { functionCall: { name: 'echo', args: { message: ECHO_MESSAGE } }, thoughtSignature: 'sig-v' },
      { functionCall: { name: 'add', args: { a: 20, b: 22 } } },
    ]);
    const handled = await host.handleModelResponse(response);
    expect(handled.outcomes.map((o) => o.parts[0])).toEqual([
      { type: 'text', text: ECHO_MESSAGE },
      { type: 'text', text: '42' },
    ]);
  });

  it('a call without a name, oversized arguments and a cut stream fail before any tool runs', async () => {
    const ai = gemini();
    const run = async (chunks: unknown[], maxArgumentsLength?: number): Promise<unknown> => {
      replies.push({ chunks });
      const stream = await ai.models.generateContentStream({ model: 'gemini-test', contents: 'x' });
      return await adapter.collectStream(stream, maxArgumentsLength ? { maxArgumentsLength } : {}).catch((e: unknown) => e);
    };
    const before = confirmations.length;

    const nameless = await run([chunk([{ functionCall: { id: 'c1', args: {} } }], 'STOP')]);
    expect(AdapterError.isInstance(nameless) && nameless.code).toBe('INVALID_TOOL_CALL');

    const huge = await run([chunk([{ functionCall: { id: 'c2', name: 'echo', args: { message: 'x'.repeat(5000) } } }], 'STOP')], 1000);
    expect(huge).toMatchObject({ code: 'TOOL_ARGUMENTS_TOO_LARGE', provider: 'gemini', toolName: 'echo', callId: 'c2' });

    const cut = await run([chunk([{ text: 'Calling ' }]), chunk([{ functionCall: { id: 'c3', name: 'add', args: { a: 1, b: 2 } } }])]);
    expect(cut).toMatchObject({ code: 'INCOMPLETE_STREAM' });
    expect((cut as Error).message).toContain('finishReason');

    const unfinished = await run([
      chunk([{ functionCall: { name: 'echo', willContinue: true } }]),
      chunk(
        [{ functionCall: { partialArgs: [{ jsonPath: '$.message', stringValue: 'hi', willContinue: true }], willContinue: true } }],
        'MAX_TOKENS',
      ),
    ]);
    expect(unfinished).toMatchObject({ code: 'INCOMPLETE_STREAM', toolName: 'echo' });

    expect(confirmations.length).toBe(before);
  });

  it("an error in the stream fails without running a tool: the SDK's ApiError, or INCOMPLETE_STREAM", async () => {
    const overloaded = { error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' } };
    const before = confirmations.length;
    // A body piece that is the error object itself: the SDK throws its ApiError.
    replies.push({
      chunks: [],
      raw: [sseText([{ data: chunk([{ functionCall: { name: 'add', args: { a: 1, b: 2 } } }]) }]), JSON.stringify(overloaded)],
    });
    const raw = await adapter
      .collectStream(await gemini().models.generateContentStream({ model: 'gemini-test', contents: 'x' }))
      .catch((e: unknown) => e);
    expect((raw as Error).name).toBe('ApiError');
    expect((raw as Error).message).toContain('overloaded');
    // The error as an SSE event: the SDK yields a chunk without candidates; the stream has no finishReason.
    replies.push({ chunks: [chunk([{ functionCall: { name: 'add', args: { a: 1, b: 2 } } }]), overloaded] });
    const framed = await adapter
      .collectStream(await gemini().models.generateContentStream({ model: 'gemini-test', contents: 'x' }))
      .catch((e: unknown) => e);
    expect(framed).toMatchObject({ code: 'INCOMPLETE_STREAM', provider: 'gemini' });
    expect(confirmations.length).toBe(before);
  });
});
