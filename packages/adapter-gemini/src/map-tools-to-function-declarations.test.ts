import { describe, expect, it } from 'vitest';
import type { HostToolDefinition } from '@toolhost/contract';
import { createGeminiAdapter } from './create-gemini-adapter.js';

const searchTool: HostToolDefinition = {
  name: 'search',
  serverName: 'docs',
  originalName: 'search',
  description: 'Search the docs.',
  inputSchema: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    additionalProperties: false,
    properties: {
      query: { type: 'string' },
      limit: { type: ['integer', 'null'] },
    },
    required: ['query'],
  },
};

const noArgsTool: HostToolDefinition = {
  name: 'docs__ping',
  serverName: 'docs',
  originalName: 'ping',
  description: '',
  inputSchema: { type: 'object', properties: {} },
};

describe('createGeminiAdapter().toTools', () => {
  it('declares `parameters` sanitised with the gemini profile by default', () => {
    const adapter = createGeminiAdapter();
    expect(adapter.schemaProfile).toBe('gemini');
    const [declaration] = adapter.toTools([searchTool]);
    expect(declaration?.name).toBe('search');
    expect(declaration?.description).toBe('Search the docs.');
    expect(declaration?.parametersJsonSchema).toBeUndefined();
    expect(declaration?.parameters).toBeDefined();
    expect(declaration?.parameters).not.toHaveProperty('$schema');
    expect(declaration?.parameters).not.toHaveProperty('additionalProperties');
    expect(declaration?.parameters?.properties).toHaveProperty('query');
  });

  it('leaves `parameters` out for a tool without arguments (Gemini rejects empty OBJECT schemas)', () => {
    const [declaration] = createGeminiAdapter().toTools([noArgsTool]);
    expect(declaration).toEqual({ name: 'docs__ping' });
  });

  it('uses `parametersJsonSchema` with the gemini-json-schema profile when asked', () => {
    const adapter = createGeminiAdapter({ schemaField: 'parametersJsonSchema' });
    expect(adapter.schemaProfile).toBe('gemini-json-schema');
    const [declaration, noArgs] = adapter.toTools([searchTool, noArgsTool]);
    expect(declaration?.parameters).toBeUndefined();
    const schema = declaration?.parametersJsonSchema as Record<string, Record<string, Record<string, unknown>>>;
    // This profile keeps the JSON Schema as it is, except for `type: [X, "null"]`.
    expect(schema['additionalProperties']).toBe(false);
    expect(schema['properties']?.['limit']).toMatchObject({ type: 'integer', nullable: true });
    expect(noArgs?.parametersJsonSchema).toEqual({ type: 'object', properties: {} });
  });

  it('does not change the host tool it was given', () => {
    const before = structuredClone(searchTool);
    createGeminiAdapter().toTools([searchTool]);
    expect(searchTool).toEqual(before);
  });
});
