import type { ChatCompletion } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import type { HostToolDefinition, ToolCallOutcome } from '@toolhost/host';
import { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';
import { OpenAIAdapterError } from './openai-adapter-error.js';

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
    adapter.toTools([searchTool]);
    const calls = adapter.getToolCalls(
      completionWith([
        { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"query":"mcp","limit":null}' } },
        { id: 'call_2', type: 'custom', custom: { name: 'grammar', input: 'x' } },
        { id: 'call_3', type: 'function', function: { name: 'ping', arguments: '' } },
      ]),
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
        adapter.getToolCalls(completionWith([{ id: 'call_9', type: 'function', function: { name: 'search', arguments: raw } }]));
      } catch (error) {
        caught = error;
      }
      expect(OpenAIAdapterError.isInstance(caught)).toBe(true);
      expect(caught).toMatchObject({ code: 'INVALID_TOOL_ARGUMENTS', toolName: 'search', callId: 'call_9' });
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

  it('declares dotted host names with underscores and maps calls back to the host name', () => {
    const adapter = createOpenAIChatAdapter();
    const [tool] = adapter.toTools([{ ...searchTool, name: 'docs.search' }]);
    expect(tool?.function.name).toBe('docs_search');
    const [call] = adapter.getToolCalls(
      completionWith([{ id: 'call_5', type: 'function', function: { name: 'docs_search', arguments: '{"query":"q","limit":null}' } }]),
    );
    expect(call).toEqual({ id: 'call_5', name: 'docs.search', arguments: { query: 'q' } });
  });
});
