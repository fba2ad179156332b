import type { Message } from '@anthropic-ai/sdk/resources/messages';
import { describe, expect, it } from 'vitest';
import { AdapterError, type HostToolDefinition, type ToolCallContext, type ToolCallOutcome } from '@toolhost/contract';
import { createAnthropicAdapter } from './create-anthropic-adapter.js';

// The Anthropic adapter reads calls without looking at the declared tools.
const context: ToolCallContext = { tools: new Map() };

const searchTool: HostToolDefinition = {
  name: 'search',
  serverName: 'docs',
  originalName: 'search',
  description: 'Search the docs.',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, filter: { $ref: '#/$defs/filter' } },
    required: ['query'],
    additionalProperties: false,
    $defs: { filter: { type: 'object', properties: { tag: { type: 'string' } } } },
  },
};

function messageWith(content: unknown[]): Message {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-test',
    stop_reason: 'tool_use',
    stop_sequence: null,
    content,
  } as unknown as Message;
}

describe('createAnthropicAdapter', () => {
  const adapter = createAnthropicAdapter();

  it('declares tools with input_schema from the anthropic profile', () => {
    expect(adapter.schemaProfile).toBe('anthropic');
    const tools = adapter.toTools([searchTool, { ...searchTool, name: 'bare', description: '', inputSchema: {} }]);
    expect(tools[0]).toEqual({ name: 'search', description: 'Search the docs.', input_schema: searchTool.inputSchema });
    expect(tools[1]).toEqual({ name: 'bare', input_schema: { type: 'object', properties: {} } });
  });

  it('reads tool_use blocks in order with their ids', () => {
    const calls = adapter.getToolCalls(
      messageWith([
        { type: 'text', text: 'Searching.' },
        { type: 'tool_use', id: 'toolu_1', name: 'search', input: { query: 'mcp' } },
        { type: 'tool_use', id: 'toolu_2', name: 'ping', input: {} },
      ]),
      context,
    );
    expect(calls).toEqual([
      { id: 'toolu_1', name: 'search', arguments: { query: 'mcp' } },
      { id: 'toolu_2', name: 'ping', arguments: {} },
    ]);
    expect(adapter.getToolCalls(messageWith([{ type: 'text', text: 'done' }]), context)).toEqual([]);
  });

  it('rejects a tool_use whose input is not an object', () => {
    let caught: unknown;
    try {
      adapter.getToolCalls(messageWith([{ type: 'tool_use', id: 'toolu_3', name: 'search', input: 'oops' }]), context);
    } catch (error) {
      caught = error;
    }
    expect(AdapterError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'INVALID_TOOL_ARGUMENTS', provider: 'anthropic', toolName: 'search', callId: 'toolu_3' });
  });

  it('answers with one tool_result per call: text, base64 images, PDFs, is_error', () => {
    const outcomes: ToolCallOutcome[] = [
      {
        call: { id: 'toolu_1', name: 'logo', arguments: {} },
        parts: [
          { type: 'text', text: 'Here is the logo.' },
          { type: 'inlineData', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'inlineData', mimeType: 'application/pdf', data: 'JVBERi0=' },
          { type: 'inlineData', mimeType: 'audio/wav', data: 'UklGRg==' },
        ],
        isError: false,
      },
      { call: { id: 'toolu_2', name: 'fail', arguments: {} }, parts: [{ type: 'text', text: 'disk full' }], isError: true },
    ];
    expect(adapter.toToolResults(outcomes)).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: [
            { type: 'text', text: "Here is the logo.\n[Tool 'logo' also returned audio/wav data, which this model cannot receive.]" },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
          ],
        },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'disk full' }], is_error: true },
      ],
    });
  });
});

describe('createAnthropicAdapter is stateless', () => {
  it('declares the names the host gives and returns tool_use names unchanged', () => {
    const adapter = createAnthropicAdapter();
    const [tool] = adapter.toTools([{ ...searchTool, name: 'files__read-v2' }]);
    expect(tool?.name).toBe('files__read-v2');
    const [call] = adapter.getToolCalls(messageWith([{ type: 'tool_use', id: 'toolu_9', name: 'files__read-v2', input: {} }]), context);
    expect(call).toEqual({ id: 'toolu_9', name: 'files__read-v2', arguments: {} });
  });

  it('serves two hosts with different tools from one instance, whatever the order of calls', () => {
    const adapter = createAnthropicAdapter();
    const hostA: HostToolDefinition[] = [
      searchTool,
      { ...searchTool, name: 'a_only', inputSchema: { type: 'object', properties: { x: { type: 'number' } } } },
    ];
    const hostB: HostToolDefinition[] = [
      { ...searchTool, inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
      { ...searchTool, name: 'b-only' },
    ];
    const contextA: ToolCallContext = { tools: new Map(hostA.map((t) => [t.name, t])) };
    const contextB: ToolCallContext = { tools: new Map(hostB.map((t) => [t.name, t])) };

    const declaredA = adapter.toTools(hostA);
    const declaredB = adapter.toTools(hostB);
    expect(declaredA.map((t) => t.name)).toEqual(['search', 'a_only']);
    expect(declaredB.map((t) => t.name)).toEqual(['search', 'b-only']);
    expect(declaredA[0]?.input_schema.properties).toHaveProperty('query');
    expect(declaredB[0]?.input_schema.properties).toHaveProperty('q');

    // Host A reads its calls after host B declared: names come back exactly as the model sent them.
    const callsA = adapter.getToolCalls(messageWith([{ type: 'tool_use', id: 'toolu_a', name: 'a_only', input: { x: 1 } }]), contextA);
    const callsB = adapter.getToolCalls(
      messageWith([{ type: 'tool_use', id: 'toolu_b', name: 'b-only', input: { query: 'q' } }]),
      contextB,
    );
    expect(callsA).toEqual([{ id: 'toolu_a', name: 'a_only', arguments: { x: 1 } }]);
    expect(callsB).toEqual([{ id: 'toolu_b', name: 'b-only', arguments: { query: 'q' } }]);
    const resultsB = adapter.toToolResults([{ call: callsB[0]!, parts: [{ type: 'text', text: 'B' }], isError: false }]);
    const resultsA = adapter.toToolResults([{ call: callsA[0]!, parts: [{ type: 'text', text: 'A' }], isError: false }]);
    expect(resultsA.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_a', content: [{ type: 'text', text: 'A' }] }]);
    expect(resultsB.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_b', content: [{ type: 'text', text: 'B' }] }]);
    expect(createAnthropicAdapter().toTools(hostA)).toEqual(adapter.toTools(hostA));
  });
});

describe('createAnthropicAdapter media types', () => {
  it('sends image/jpg and MIME types with parameters or capitals as the media_type Anthropic accepts', () => {
    const message = createAnthropicAdapter().toToolResults([
      {
        call: { id: 'toolu_1', name: 'shots', arguments: {} },
        parts: [
          { type: 'inlineData', mimeType: 'image/jpg', data: '/9j/' },
          { type: 'inlineData', mimeType: 'Image/PNG; name=a.png', data: 'iVBORw0KGgo=' },
        ],
        isError: false,
      },
    ]);
    const [block] = message.content as { content: { source?: { media_type: string; data: string } }[] }[];
    expect(block?.content.map((item) => item.source)).toEqual([
      { type: 'base64', media_type: 'image/jpeg', data: '/9j/' },
      { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
    ]);
  });
});
