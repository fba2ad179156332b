import { describe, expect, it } from 'vitest';
import { AdapterError, type HostToolDefinition } from '@toolhost/contract';
import { createGeminiAdapter } from './create-gemini-adapter.js';
import { GEMINI_VENDOR_LIMITS } from './gemini-vendor-limits.js';

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

const tools = (count: number): HostToolDefinition[] => Array.from({ length: count }, (_, i) => tool(`tool_${i + 1}`));

function caught(run: () => unknown): AdapterError {
  try {
    run();
  } catch (error) {
    if (AdapterError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an AdapterError');
}

describe.each(['parameters', 'parametersJsonSchema'] as const)('createGeminiAdapter limits (%s)', (schemaField) => {
  const create = (options: Parameters<typeof createGeminiAdapter>[0] = {}) => createGeminiAdapter({ schemaField, ...options });

  it("states Gemini's limits and the context window it was given", () => {
    expect(create().limits).toEqual(GEMINI_VENDOR_LIMITS);
    expect(create().limits).toEqual({ maxTools: 512 });
    expect(create({ contextWindowTokens: 1_048_576 }).contextWindowTokens).toBe(1_048_576);
    expect(create().nativeToolSearch).toBe(false);
  });

  it('refuses 513 function declarations before anything is sent; declares 512', () => {
    const error = caught(() => create().toTools(tools(513)));
    expect(error).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', provider: 'gemini', limit: 'maxTools' });
    expect(error.message).toContain('Gemini accepts at most 512 tools in one request (limit maxTools); this one would declare 513');
    expect(create().toTools(tools(512))).toHaveLength(512);
  });

  it('refuses a 70-character name and one that starts with a digit', () => {
    const long = 'b'.repeat(70);
    expect(caught(() => create().toTools([tool(long)]))).toMatchObject({ limit: 'toolNames', toolName: long });
    expect(caught(() => create().toTools([tool('3d_render')]))).toMatchObject({ limit: 'toolNames', toolName: '3d_render' });
  });

  it('applies limits set for a gateway: a shortened description, a schema size and depth on what is declared', () => {
    const description = `Render a scene. ${'Lots of detail. '.repeat(10_000)}`;
    const [declared] = create({ limits: { maxDescriptionLength: 500 } }).toTools([tool('render', { description })]);
    expect(declared?.description?.length).toBeLessThanOrEqual(500);
    expect(declared?.description).toMatch(
      /^Render a scene\. Lots of detail\..* \[…\d+ more characters cut to fit Gemini's limit of 500\]$/,
    );
    const properties = Object.fromEntries(
      Array.from({ length: 2000 }, (_, i) => [`field_${i}`, { type: 'string', description: 'A field.' }]),
    );
    const huge = tool('huge', { inputSchema: { type: 'object', properties } });
    expect(caught(() => create({ limits: { maxSchemaBytes: 50_000 } }).toTools([huge]))).toMatchObject({
      limit: 'maxSchemaBytes',
      toolName: 'huge',
    });
    expect(create().toTools([huge])).toHaveLength(1);
    const deep = {
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'string' } } } } } },
    };
    expect(caught(() => create({ limits: { maxSchemaDepth: 2 } }).toTools([tool('deep', { inputSchema: deep })]))).toMatchObject({
      limit: 'maxSchemaDepth',
    });
  });

  it('refuses deferred tools: Gemini has no native tool search', () => {
    expect(caught(() => create().toTools([tool('a', { deferLoading: true })]))).toMatchObject({ code: 'INVALID_OPTIONS', toolName: 'a' });
  });
});
