import { GenerateContentResponse } from '@google/genai';
import { AdapterError, type ToolCallContext } from '@toolhost/contract';
import { describe, expect, it } from 'vitest';
import { createGeminiAdapter } from './create-gemini-adapter.js';

// The Gemini adapter reads calls without looking at the declared tools.
const context: ToolCallContext = { tools: new Map() };

function responseWith(parts: unknown[]): GenerateContentResponse {
  return Object.assign(new GenerateContentResponse(), { candidates: [{ content: { role: 'model', parts } }] });
}

describe('createGeminiAdapter().getToolCalls', () => {
  const adapter = createGeminiAdapter();

  it('returns every functionCall part in order, keeping ids and arguments', () => {
    const response = responseWith([
      { text: 'Let me look.' },
      { functionCall: { id: 'call-1', name: 'search', args: { query: 'mcp' } } },
      { functionCall: { name: 'docs__ping' } },
    ]);
    expect(adapter.getToolCalls(response, context)).toEqual([
      { id: 'call-1', name: 'search', arguments: { query: 'mcp' } },
      { name: 'docs__ping', arguments: {} },
    ]);
  });

  it('reads a Content turn from the history as well', () => {
    const calls = adapter.getToolCalls({ role: 'model', parts: [{ functionCall: { name: 'echo', args: { message: 'x' } } }] }, context);
    expect(calls).toEqual([{ name: 'echo', arguments: { message: 'x' } }]);
  });

  it('returns nothing for a text-only or empty response', () => {
    expect(adapter.getToolCalls(responseWith([{ text: 'hello' }]), context)).toEqual([]);
    expect(adapter.getToolCalls(new GenerateContentResponse(), context)).toEqual([]);
  });

  it('rejects a functionCall without a name with a coded error', () => {
    let caught: unknown;
    try {
      adapter.getToolCalls(responseWith([{ functionCall: { id: 'call-7', args: {} } }]), context);
    } catch (error) {
      caught = error;
    }
    expect(AdapterError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'INVALID_TOOL_CALL', provider: 'gemini', callId: 'call-7' });
    expect(AdapterError.isInstance(new Error('other'))).toBe(false);
  });
});
