// End to end: deferred host tools → adapter (toolSearch: 'native') → @anthropic-ai/sdk → msw (Messages API,
// replaying the shape of a tool search answer) → McpToolHost → real stdio MCP server → next request.
import Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, Message, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { createFixtureHost, sseResponse, type SseEvent } from '@toolhost-internal/test-support';
import type { ConfirmationRequest, HostToolDefinition } from '@toolhost/contract';
import type { McpToolHost } from '@toolhost/host';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicAdapter, type AnthropicAdapter } from './create-anthropic-adapter.js';
import type { AnthropicToolDeclaration } from './declare-anthropic-tools.js';

const bodies: Record<string, unknown>[] = [];
const replies: Array<Record<string, unknown> | SseEvent[]> = [];

const api = setupServer(
  http.post('https://api.anthropic.com/v1/messages', async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    const reply = replies.shift();
    if (!reply) throw new Error('No reply queued for this request.');
    return Array.isArray(reply) ? sseResponse(reply) : HttpResponse.json(reply);
  }),
);

// The content of an answer that searched deferred tools, as the tool search tool documentation
// shows it: the search call, its result of tool references, then a call of a tool it found.
const SEARCH_CALL = { type: 'server_tool_use', id: 'srvtoolu_01', name: 'tool_search_tool_bm25', input: { query: 'mixed content image' } };
const SEARCH_RESULT = {
  type: 'tool_search_tool_result',
  tool_use_id: 'srvtoolu_01',
  content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'mixed-content' }] },
};
const FOUND_CALL = { type: 'tool_use', id: 'toolu_01', name: 'mixed-content', input: {} };

function message(id: string, content: unknown[], stopReason: string): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5, server_tool_use: { web_search_requests: 0 } },
    content,
  };
}

let adapter: AnthropicAdapter<AnthropicToolDeclaration>;
let host: McpToolHost<AnthropicToolDeclaration, Message | readonly ContentBlock[], MessageParam>;
let confirmations: ConfirmationRequest[];
let tools: AnthropicToolDeclaration[];

/** The host's tools with every one but `echo` deferred, as the host marks them for an adapter with native tool search. */
function deferAllButEcho(definitions: readonly HostToolDefinition[]): HostToolDefinition[] {
  return definitions.map((tool) => (tool.name === 'echo' ? tool : { ...tool, deferLoading: true }));
}

beforeAll(async () => {
  api.listen({ onUnhandledRequest: 'error' });
  adapter = createAnthropicAdapter({ toolSearch: 'native' });
  ({ host, confirmations } = await createFixtureHost(adapter));
  tools = adapter.toTools(deferAllButEcho(host.listToolDefinitions()));
});

afterEach(() => {
  replies.length = 0;
  bodies.length = 0;
  confirmations.length = 0;
});

afterAll(async () => {
  await host?.close();
  api.close();
});

const client = (): Anthropic => new Anthropic({ apiKey: 'test-key', maxRetries: 0 });

describe('Anthropic native tool search end to end', () => {
  it('sends deferred tools with defer_loading and the search tool, runs only the found tool, and replays the search blocks', async () => {
    replies.push(
      message(
        'msg_1',
        [{ type: 'text', text: 'Let me find a tool.', citations: null }, SEARCH_CALL, SEARCH_RESULT, FOUND_CALL],
        'tool_use',
      ),
      message('msg_2', [{ type: 'text', text: 'I see a one-pixel image.', citations: null }], 'end_turn'),
    );
    const messages: MessageParam[] = [{ role: 'user', content: 'Show me the mixed content.' }];
    const first = await client().messages.create({ model: 'claude-test', max_tokens: 256, messages, tools });

    const sent = bodies[0]?.['tools'] as Record<string, unknown>[];
    expect(sent.at(-1)).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(sent.find((tool) => tool['name'] === 'echo')).not.toHaveProperty('defer_loading');
    expect(sent.find((tool) => tool['name'] === 'mixed-content')).toMatchObject({ defer_loading: true, input_schema: { type: 'object' } });
    expect(sent.filter((tool) => tool['defer_loading'] === true)).toHaveLength(sent.length - 2);
    expect(bodies[0]?.['betas']).toBeUndefined();

    // The search call is Anthropic's own: only the call of the tool it found runs on the MCP server.
    expect(adapter.getToolCalls(first, { tools: new Map() })).toEqual([{ id: 'toolu_01', name: 'mixed-content', arguments: {} }]);
    const handled = await host.handleModelResponse(first);
    expect(confirmations.map((request) => request.mcpDetails.toolName)).toEqual(['mixed-content']);
    expect(handled.outcomes).toHaveLength(1);
    expect(handled.toolResults?.content).toEqual([expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_01' })]);

    messages.push({ role: 'assistant', content: first.content }, handled.toolResults!);
    const second = await client().messages.create({ model: 'claude-test', max_tokens: 256, messages, tools });
    expect(second.content[0]).toMatchObject({ type: 'text', text: 'I see a one-pixel image.' });
    const replayed = (bodies[1]?.['messages'] as Record<string, unknown>[])[1]?.['content'] as Record<string, unknown>[];
    expect(replayed.map((block) => block['type'])).toEqual(['text', 'server_tool_use', 'tool_search_tool_result', 'tool_use']);
    expect(replayed[1]).toMatchObject(SEARCH_CALL);
    expect(replayed[2]).toMatchObject(SEARCH_RESULT);
  });

  it('assembles a streamed search answer without taking the search for a call, keeping its blocks', async () => {
    const ev = (data: Record<string, unknown> & { type: string }): SseEvent => ({ event: data.type, data });
    replies.push([
      ev({ type: 'message_start', message: { ...message('msg_3', [], 'tool_use'), stop_reason: null } }),
      ev({ type: 'content_block_start', index: 0, content_block: { ...SEARCH_CALL, input: {} } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"query": "mixed ' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: 'content image"}' } }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'content_block_start', index: 1, content_block: SEARCH_RESULT }),
      ev({ type: 'content_block_stop', index: 1 }),
      ev({ type: 'content_block_start', index: 2, content_block: FOUND_CALL }),
      ev({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{}' } }),
      ev({ type: 'content_block_stop', index: 2 }),
      ev({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 9 } }),
      ev({ type: 'message_stop' }),
    ]);
    const starts: string[] = [];
    const stream = client().messages.stream({ model: 'claude-test', max_tokens: 256, messages: [{ role: 'user', content: 'go' }], tools });
    const collected = await adapter.collectStream(stream, {
      onEvent: (event) => {
        if (event.type === 'tool-call-start') starts.push(event.name);
      },
    });
    expect(starts).toEqual(['mixed-content']);
    expect(collected.content.map((block) => block.type)).toEqual(['server_tool_use', 'tool_search_tool_result', 'tool_use']);
    expect(collected.content[0]).toMatchObject({ ...SEARCH_CALL, input: { query: 'mixed content image' } });
    expect(collected.content[1]).toEqual(SEARCH_RESULT);
    const handled = await host.handleModelResponse(collected);
    expect(handled.outcomes.map((outcome) => outcome.call.name)).toEqual(['mixed-content']);
  });
});
