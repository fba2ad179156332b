import type { Content } from '@google/genai';
import type { HostToolDefinition, ToolCallContext } from '@toolhost/contract';
import { describe, expect, it } from 'vitest';
import { createGeminiAdapter } from './create-gemini-adapter.js';

function tool(name: string, properties: Record<string, unknown>): HostToolDefinition {
  return { name, serverName: 'server', originalName: name, description: '', inputSchema: { type: 'object', properties } };
}

function contextOf(tools: readonly HostToolDefinition[]): ToolCallContext {
  return { tools: new Map(tools.map((t) => [t.name, t])) };
}

function callTurn(name: string, args: Record<string, unknown>): Content {
  return { role: 'model', parts: [{ functionCall: { id: `id-${name}`, name, args } }] };
}

describe('createGeminiAdapter is stateless', () => {
  it('declares names as the host gives them and returns the model names unchanged', () => {
    const adapter = createGeminiAdapter();
    // Names the host assigned under GEMINI_TOOL_NAME_POLICY: the adapter neither renames nor maps back.
    const tools = [tool('_3d-render', {}), tool('docs.search:v2', { query: { type: 'string' } })];
    expect(adapter.toTools(tools).map((declaration) => declaration.name)).toEqual(['_3d-render', 'docs.search:v2']);
    const calls = adapter.getToolCalls(callTurn('_3d-render', {}), contextOf(tools));
    expect(calls).toEqual([{ id: 'id-_3d-render', name: '_3d-render', arguments: {} }]);
    const content = adapter.toToolResults([{ call: calls[0]!, parts: [{ type: 'text', text: 'ok' }], isError: false }]);
    expect(content.parts?.[0]?.functionResponse).toMatchObject({ id: 'id-_3d-render', name: '_3d-render' });
  });

  it('serves two hosts with different tools from one instance, whatever the order of calls', () => {
    const adapter = createGeminiAdapter();
    const first = [tool('_1st-tool', { a: { type: 'string' } }), tool('search', { query: { type: 'string' } })];
    const second = [tool('search', { q: { type: 'integer' } }), tool('fetch.page', { url: { type: 'string' } })];

    // Host 1 declares, then host 2 declares, then host 1 reads its calls and answers them.
    const declaredFirst = adapter.toTools(first);
    const declaredSecond = adapter.toTools(second);
    expect(declaredFirst.map((d) => d.name)).toEqual(['_1st-tool', 'search']);
    expect(declaredSecond.map((d) => d.name)).toEqual(['search', 'fetch.page']);
    expect(declaredFirst[1]?.parameters?.properties).toHaveProperty('query');
    expect(declaredSecond[0]?.parameters?.properties).toHaveProperty('q');

    const firstCalls = adapter.getToolCalls(callTurn('_1st-tool', { a: 'x' }), contextOf(first));
    const secondCalls = adapter.getToolCalls(callTurn('fetch.page', { url: 'https://example.com' }), contextOf(second));
    expect(firstCalls).toEqual([{ id: 'id-_1st-tool', name: '_1st-tool', arguments: { a: 'x' } }]);
    expect(secondCalls).toEqual([{ id: 'id-fetch.page', name: 'fetch.page', arguments: { url: 'https://example.com' } }]);

    // Answered in the opposite order: each functionResponse carries its own call's name.
    const secondResults = adapter.toToolResults([{ call: secondCalls[0]!, parts: [{ type: 'text', text: '2' }], isError: false }]);
    const firstResults = adapter.toToolResults([{ call: firstCalls[0]!, parts: [{ type: 'text', text: '1' }], isError: false }]);
    expect(firstResults.parts?.[0]?.functionResponse).toMatchObject({ name: '_1st-tool', response: { output: '1' } });
    expect(secondResults.parts?.[0]?.functionResponse).toMatchObject({ name: 'fetch.page', response: { output: '2' } });

    // A fresh instance gives the same answers: nothing was remembered.
    expect(createGeminiAdapter().toTools(first)).toEqual(adapter.toTools(first));
  });
});
