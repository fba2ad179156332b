import { describe, expect, it } from 'vitest';
import { AdapterError, type HostToolDefinition } from '@toolhost/contract';
import { ANTHROPIC_VENDOR_LIMITS } from './anthropic-vendor-limits.js';
import { createAnthropicAdapter } from './create-anthropic-adapter.js';

function tool(name: string, extra: Partial<HostToolDefinition> = {}): HostToolDefinition {
  return {
    name,
    serverName: 'docs',
    originalName: name,
    description: `Tool ${name}.`,
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    ...extra,
  };
}

function caught(run: () => unknown): AdapterError {
  try {
    run();
  } catch (error) {
    if (AdapterError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an AdapterError');
}

describe('createAnthropicAdapter limits', () => {
  it("states Anthropic's limits and the context window it was given", () => {
    const adapter = createAnthropicAdapter({ contextWindowTokens: 200_000 });
    expect(adapter.limits).toEqual(ANTHROPIC_VENDOR_LIMITS);
    expect(adapter.limits).toEqual({ maxDeferredTools: 10_000, maxToolsBytes: 32_000_000 });
    expect(adapter.contextWindowTokens).toBe(200_000);
    expect(adapter.nativeToolSearch).toBe(false);
    expect(createAnthropicAdapter().contextWindowTokens).toBeUndefined();
  });

  it('refuses a 70-character tool name before anything is sent', () => {
    const name = `${'github__'.repeat(8)}create`; // 70 characters
    expect(name).toHaveLength(70);
    const error = caught(() => createAnthropicAdapter().toTools([tool('search'), tool(name)]));
    expect(error).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', provider: 'anthropic', limit: 'toolNames', toolName: name });
    expect(error.message).toContain('is 70 characters long; Anthropic accepts at most 64');
  });

  it('refuses declarations larger than the 32 MB a Messages request may be, naming the size and tool search', () => {
    const huge = tool('huge', { description: 'x'.repeat(32_000_000) });
    const error = caught(() => createAnthropicAdapter().toTools([tool('search'), huge]));
    expect(error).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', limit: 'maxToolsBytes' });
    expect(error.message).toMatch(/The tool declarations of this request are \d+ bytes of JSON; Anthropic accepts at most 32000000/);
    expect(error.message).toContain("McpToolHost.create({ toolSearch: 'auto' })");
  });

  it('applies the limits option over the defaults: a count, a shortened description, a lifted limit', () => {
    const adapter = createAnthropicAdapter({ limits: { maxTools: 2, maxDescriptionLength: 200, maxToolsBytes: undefined } });
    expect(adapter.limits).toEqual({ maxTools: 2, maxDeferredTools: 10_000, maxDescriptionLength: 200 });
    expect(caught(() => adapter.toTools([tool('a'), tool('b'), tool('c')]))).toMatchObject({ limit: 'maxTools' });
    const [declared] = adapter.toTools([tool('a', { description: `Read a file. ${'More detail. '.repeat(500)}` })]);
    expect(declared?.description?.length).toBeLessThanOrEqual(200);
    expect(declared?.description).toMatch(/^Read a file\. More detail\..* \[…\d+ more characters cut to fit Anthropic's limit of 200\]$/);
  });

  it('refuses options it does not know', () => {
    expect(caught(() => createAnthropicAdapter({ toolSearch: 'auto' as 'off' }))).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(caught(() => createAnthropicAdapter({ toolSearchTool: 'embeddings' as 'bm25' }))).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(caught(() => createAnthropicAdapter({ contextWindowTokens: -1 }))).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(caught(() => createAnthropicAdapter({ limits: { maxTools: 0 } }))).toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('createAnthropicAdapter native tool search', () => {
  it('refuses a deferred tool when toolSearch is off', () => {
    const error = caught(() => createAnthropicAdapter().toTools([tool('a'), tool('b', { deferLoading: true })]));
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS', toolName: 'b' });
  });

  it('declares deferred tools with defer_loading and adds the BM25 tool search tool after them', () => {
    const adapter = createAnthropicAdapter({ toolSearch: 'native' });
    expect(adapter.nativeToolSearch).toBe(true);
    const tools = adapter.toTools([tool('a'), tool('b', { deferLoading: true }), tool('c', { deferLoading: true })]);
    expect(tools).toEqual([
      { name: 'a', description: 'Tool a.', input_schema: { type: 'object', properties: { q: { type: 'string' } } } },
      { name: 'b', description: 'Tool b.', input_schema: { type: 'object', properties: { q: { type: 'string' } } }, defer_loading: true },
      { name: 'c', description: 'Tool c.', input_schema: { type: 'object', properties: { q: { type: 'string' } } }, defer_loading: true },
      { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
    ]);
  });

  it('adds the regex search tool when asked, even when every tool is deferred, and none when nothing is', () => {
    const adapter = createAnthropicAdapter({ toolSearch: 'native', toolSearchTool: 'regex' });
    const tools = adapter.toTools([tool('a', { deferLoading: true })]);
    expect(tools.at(-1)).toEqual({ type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' });
    expect(tools.filter((declared) => !('defer_loading' in declared))).toHaveLength(1);
    expect(adapter.toTools([tool('a')])).toEqual([createAnthropicAdapter().toTools([tool('a')])[0]]);
  });

  it('counts deferred tools against the 10,000 Anthropic searches, and refuses a host tool named like the search tool', () => {
    const adapter = createAnthropicAdapter({ toolSearch: 'native', limits: { maxDeferredTools: 3 } });
    const deferred = ['a', 'b', 'c', 'd'].map((name) => tool(name, { deferLoading: true }));
    expect(caught(() => adapter.toTools(deferred))).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', limit: 'maxDeferredTools' });
    const clash = caught(() => adapter.toTools([tool('tool_search_tool_bm25'), tool('b', { deferLoading: true })]));
    expect(clash).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', limit: 'toolNames', toolName: 'tool_search_tool_bm25' });
  });
});
