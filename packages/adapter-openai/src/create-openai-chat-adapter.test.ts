import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { AdapterError, type HostToolDefinition, type ToolCallContext, type ToolCallOutcome } from '@toolhost/contract';
import { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';

const searchTool: HostToolDefinition = {
  name: 'search',
  serverName: 'docs',
  originalName: 'search',
  description: 'Search the docs.',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'integer', default: 10 } },
    required: ['query'],
  },
};

function contextOf(tools: readonly HostToolDefinition[]): ToolCallContext {
  return { tools: new Map(tools.map((tool) => [tool.name, tool])) };
}

function completionWith(toolCalls: unknown[]): ChatCompletion {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: { role: 'assistant', content: null, refusal: null, tool_calls: toolCalls },
      },
    ],
  } as ChatCompletion;
}

describe('createOpenAIChatAdapter', () => {
  it('declares strict function tools with the openai-strict profile by default', () => {
    const adapter = createOpenAIChatAdapter();
    expect(adapter.schemaProfile).toBe('openai-strict');
    const [tool] = adapter.toTools([searchTool]);
    expect(tool).toMatchObject({ type: 'function', function: { name: 'search', description: 'Search the docs.', strict: true } });
    const parameters = tool?.function.parameters as Record<string, unknown>;
    expect(parameters['additionalProperties']).toBe(false);
    expect(parameters['required']).toEqual(['query', 'limit']);
    expect(parameters).not.toHaveProperty('$schema');
    expect((parameters['properties'] as Record<string, unknown>)['limit']).toEqual({ type: ['integer', 'null'] });
  });

  it('passes the schema through unchanged with strict off', () => {
    const adapter = createOpenAIChatAdapter({ strict: false });
    expect(adapter.schemaProfile).toBe('none');
    const [tool] = adapter.toTools([searchTool]);
    expect(tool?.function.strict).toBe(false);
    expect(tool?.function.parameters).toEqual(searchTool.inputSchema);
  });

  it('reads function tool calls with their ids and drops the nulls strict mode forced', () => {
    const adapter = createOpenAIChatAdapter();
    // No toTools first: the schema comes from the context the host passes.
    const calls = adapter.getToolCalls(
      completionWith([
        { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"query":"mcp","limit":null}' } },
        { id: 'call_2', type: 'custom', custom: { name: 'grammar', input: 'x' } },
        { id: 'call_3', type: 'function', function: { name: 'ping', arguments: '' } },
      ]),
      contextOf([searchTool]),
    );
    expect(calls).toEqual([
      { id: 'call_1', name: 'search', arguments: { query: 'mcp' } },
      { id: 'call_3', name: 'ping', arguments: {} },
    ]);
  });

  it('rejects arguments that are not a JSON object with a coded error', () => {
    const adapter = createOpenAIChatAdapter();
    for (const raw of ['{"query":', '[1,2]']) {
      let caught: unknown;
      try {
        adapter.getToolCalls(
          completionWith([{ id: 'call_9', type: 'function', function: { name: 'search', arguments: raw } }]),
          contextOf([searchTool]),
        );
      } catch (error) {
        caught = error;
      }
      expect(AdapterError.isInstance(caught)).toBe(true);
      expect(caught).toMatchObject({ code: 'INVALID_TOOL_ARGUMENTS', provider: 'openai', toolName: 'search', callId: 'call_9' });
    }
  });

  it('answers each call with a tool message and sends its images in one following user message', () => {
    const outcomes: ToolCallOutcome[] = [
      {
        call: { id: 'call_1', name: 'logo', arguments: {} },
        parts: [
          { type: 'text', text: 'Here is the logo.' },
          { type: 'inlineData', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
          { type: 'inlineData', mimeType: 'audio/wav', data: 'UklGRg==' },
          { type: 'inlineData', mimeType: 'application/octet-stream', data: 'AAEC' },
        ],
        isError: false,
      },
      { call: { id: 'call_2', name: 'fail', arguments: {} }, parts: [{ type: 'text', text: 'disk full' }], isError: true },
    ];
    const messages = createOpenAIChatAdapter().toToolResults(outcomes);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      content:
        "Here is the logo.\n[Tool 'logo' also returned application/octet-stream data, which this model cannot receive.]\n" +
        '[The 2 media item(s) of this result follow in the next user message.]',
    });
    expect(messages[1]).toEqual({ role: 'tool', tool_call_id: 'call_2', content: 'disk full' });
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: "Media returned by tool 'logo' (call call_1):" },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
      ],
    });
  });

  it('adds no user message when no result carries media', () => {
    const messages = createOpenAIChatAdapter().toToolResults([
      { call: { id: 'c', name: 'echo', arguments: {} }, parts: [{ type: 'text', text: 'hi' }], isError: false },
    ]);
    expect(messages).toEqual([{ role: 'tool', tool_call_id: 'c', content: 'hi' }]);
  });

  it('keeps the nulls when strict mode is off or the context does not know the tool', () => {
    const completion = completionWith([
      { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"query":"q","limit":null}' } },
    ]);
    const expected = [{ id: 'call_1', name: 'search', arguments: { query: 'q', limit: null } }];
    expect(createOpenAIChatAdapter({ strict: false }).getToolCalls(completion, contextOf([searchTool]))).toEqual(expected);
    expect(createOpenAIChatAdapter().getToolCalls(completion, contextOf([]))).toEqual(expected);
  });

  it('declares the names the host gives and returns the model names unchanged', () => {
    const adapter = createOpenAIChatAdapter();
    const tool = { ...searchTool, name: 'docs__search-v2' };
    expect(adapter.toTools([tool])[0]?.function.name).toBe('docs__search-v2');
    const [call] = adapter.getToolCalls(
      completionWith([{ id: 'call_5', type: 'function', function: { name: 'docs__search-v2', arguments: '{"query":"q","limit":null}' } }]),
      contextOf([tool]),
    );
    expect(call).toEqual({ id: 'call_5', name: 'docs__search-v2', arguments: { query: 'q' } });
    const [message] = adapter.toToolResults([{ call: call!, parts: [{ type: 'text', text: 'ok' }], isError: false }]);
    expect(message).toEqual({ role: 'tool', tool_call_id: 'call_5', content: 'ok' });
  });

  it("serves two hosts from one instance: each call is read with its own host's schema, in any order", () => {
    const adapter = createOpenAIChatAdapter();
    // Same name, different schemas: host A's `limit` is optional, host B's is required.
    const hostA = [searchTool];
    const hostB: HostToolDefinition[] = [
      {
        ...searchTool,
        inputSchema: {
          type: 'object',
          properties: { query: { type: 'string' }, limit: { type: 'integer' } },
          required: ['query', 'limit'],
        },
      },
      {
        ...searchTool,
        name: 'fetch',
        inputSchema: { type: 'object', properties: { url: { type: 'string' }, depth: { type: 'integer' } }, required: ['url'] },
      },
    ];
    const completion = completionWith([
      { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"query":"q","limit":null}' } },
    ]);

    adapter.toTools(hostA);
    adapter.toTools(hostB); // declared last, yet host A's calls are still read with host A's schema
    expect(adapter.getToolCalls(completion, contextOf(hostA))).toEqual([{ id: 'call_1', name: 'search', arguments: { query: 'q' } }]);
    // The null of a required property is the model's answer: it is kept for host B.
    expect(adapter.getToolCalls(completion, contextOf(hostB))).toEqual([
      { id: 'call_1', name: 'search', arguments: { query: 'q', limit: null } },
    ]);
    const fetchCall = completionWith([
      { id: 'call_2', type: 'function', function: { name: 'fetch', arguments: '{"url":"https://example.com","depth":null}' } },
    ]);
    expect(adapter.getToolCalls(fetchCall, contextOf(hostB))).toEqual([
      { id: 'call_2', name: 'fetch', arguments: { url: 'https://example.com' } },
    ]);
    // Host A never declared `fetch`: the arguments reach it untouched.
    expect(adapter.getToolCalls(fetchCall, contextOf(hostA))[0]?.arguments).toEqual({ url: 'https://example.com', depth: null });
    // Declarations do not depend on what was declared before.
    expect(adapter.toTools(hostA)).toEqual(createOpenAIChatAdapter().toTools(hostA));
  });
});
