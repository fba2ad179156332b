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

  it('declares only what the API accepts in `parameters`: types as Type values, formats, enums and fields it takes', () => {
    const tool: HostToolDefinition = {
      name: 'pages__move',
      serverName: 'pages',
      originalName: 'move',
      description: 'Move a page.',
      inputSchema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          page_id: { type: 'string', format: 'uuid', description: 'The page' },
          when: { type: 'string', format: 'date-time' },
          level: { type: 'integer', enum: [0, 1, 2], description: 'Safe search' },
          width: { type: 'integer', exclusiveMinimum: 0, maximum: 4096 },
          labels: { type: 'object', propertyNames: { pattern: '^[a-z]+$' }, additionalProperties: { type: 'string' } },
          parent: { description: 'Where to', anyOf: [{ $ref: '#/$defs/parent' }, { type: 'null' }] },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, uniqueItems: true },
          ...(JSON.parse('{ "__proto__": { "type": "boolean" } }') as object),
        },
        required: ['page_id', 'parent', 'gone'],
        $defs: {
          parent: {
            oneOf: [
              { type: 'object', properties: { kind: { const: 'page' }, id: { type: 'string' } }, required: ['kind', 'id'] },
              { type: 'object', properties: { kind: { const: 'workspace' } }, required: ['kind'] },
            ],
          },
        },
      },
    };
    const [declaration] = createGeminiAdapter().toTools([tool]);
    expect(declaration).toEqual({
      name: 'pages__move',
      description: 'Move a page.',
      parameters: {
        type: 'OBJECT',
        properties: {
          page_id: { type: 'STRING', description: 'The page (format: uuid)' },
          when: { type: 'STRING', format: 'date-time' },
          level: { type: 'INTEGER', description: 'Safe search (one of: 0, 1, 2)' },
          width: { type: 'INTEGER', minimum: 1, maximum: 4096 },
          labels: { type: 'OBJECT' },
          parent: {
            description: 'Where to',
            nullable: true,
            anyOf: [
              {
                type: 'OBJECT',
                properties: { kind: { type: 'STRING', enum: ['page'] }, id: { type: 'STRING' } },
                required: ['kind', 'id'],
              },
              { type: 'OBJECT', properties: { kind: { type: 'STRING', enum: ['workspace'] } }, required: ['kind'] },
            ],
          },
          tags: { type: 'ARRAY', items: { type: 'STRING' }, minItems: '1' },
          ...(JSON.parse('{ "__proto__": { "type": "BOOLEAN" } }') as object),
        },
        // `gone` is not a property: the API would reject the declaration.
        required: ['page_id', 'parent'],
      },
    });
    // A property named `__proto__` is an own property, never the prototype.
    expect(Object.getPrototypeOf(declaration?.parameters?.properties)).toBe(Object.prototype);
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
