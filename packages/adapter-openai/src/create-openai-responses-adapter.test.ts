import { describe, expect, it } from 'vitest';
import type { HostToolDefinition, ToolCallContext } from '@toolhost/contract';
import { createOpenAIResponsesAdapter } from './create-openai-responses-adapter.js';

const searchTool: HostToolDefinition = {
  name: 'search',
  serverName: 'docs',
  originalName: 'search',
  description: '',
  inputSchema: { type: 'object', properties: { query: { type: 'string' }, limit: { type: 'integer' } }, required: ['query'] },
};

describe('createOpenAIResponsesAdapter', () => {
  it('declares flat function tools with strict schemas', () => {
    const [tool] = createOpenAIResponsesAdapter().toTools([searchTool]);
    expect(tool).toEqual({
      type: 'function',
      name: 'search',
      strict: true,
      parameters: {
        type: 'object',
        properties: { query: { type: 'string' }, limit: { type: ['integer', 'null'] } },
        required: ['query', 'limit'],
        additionalProperties: false,
      },
    });
  });

  it('reads function_call items (call_id as id) from a response or an output array', () => {
    const adapter = createOpenAIResponsesAdapter();
    const context: ToolCallContext = { tools: new Map([[searchTool.name, searchTool]]) };
    const output = [
      { type: 'reasoning', id: 'rs_1', summary: [] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'search', arguments: '{"query":"x","limit":null}' },
    ] as const;
    const expected = [{ id: 'call_1', name: 'search', arguments: { query: 'x' } }];
    expect(adapter.getToolCalls(output as never, context)).toEqual(expected);
    expect(adapter.getToolCalls({ output } as never, context)).toEqual(expected);
  });

  it('returns text-only results as a string and media results as input_text + input_image/input_file items', () => {
    const items = createOpenAIResponsesAdapter().toToolResults([
      { call: { id: 'call_1', name: 'echo', arguments: {} }, parts: [{ type: 'text', text: 'hi' }], isError: false },
      {
        call: { id: 'call_2', name: 'report', arguments: {} },
        parts: [
          { type: 'text', text: 'Report attached.' },
          { type: 'inlineData', mimeType: 'image/jpeg', data: '/9j/' },
          { type: 'inlineData', mimeType: 'application/pdf', data: 'JVBERi0=' },
          { type: 'inlineData', mimeType: 'audio/wav', data: 'UklGRg==' },
        ],
        isError: false,
      },
      { call: { id: 'call_3', name: 'fail', arguments: {} }, parts: [], isError: true },
    ]);
    expect(items).toEqual([
      { type: 'function_call_output', call_id: 'call_1', output: 'hi' },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [
          { type: 'input_text', text: "Report attached.\n[Tool 'report' also returned audio/wav data, which this model cannot receive.]" },
          { type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/', detail: 'auto' },
          { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'report.pdf' },
        ],
      },
      { type: 'function_call_output', call_id: 'call_3', output: "Tool 'fail' failed." },
    ]);
  });

  it("serves two hosts from one instance: each call is read with its own host's schema", () => {
    const adapter = createOpenAIResponsesAdapter();
    const other: HostToolDefinition = { ...searchTool, inputSchema: { ...searchTool.inputSchema, required: ['query', 'limit'] } };
    const output = [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'search', arguments: '{"query":"x","limit":null}' }];
    adapter.toTools([searchTool]);
    adapter.toTools([other]);
    expect(adapter.getToolCalls(output as never, { tools: new Map([['search', searchTool]]) })[0]?.arguments).toEqual({ query: 'x' });
    expect(adapter.getToolCalls(output as never, { tools: new Map([['search', other]]) })[0]?.arguments).toEqual({
      query: 'x',
      limit: null,
    });
    const [item] = adapter.toToolResults([
      { call: { id: 'call_1', name: 'search', arguments: {} }, parts: [{ type: 'text', text: 'ok' }], isError: false },
    ]);
    expect(item).toEqual({ type: 'function_call_output', call_id: 'call_1', output: 'ok' });
  });
});
