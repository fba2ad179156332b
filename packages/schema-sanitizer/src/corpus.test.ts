import { describe, expect, it } from 'vitest';
import { TOOL_SCHEMA_CORPUS } from './__fixtures__/tool-schema-corpus.js';
import { deepFreeze, visitSchemas } from './__fixtures__/visit-schemas.js';
import { GEMINI_SCHEMA_FIELDS, OPENAI_STRICT_FORMATS, OPENAI_STRICT_KEYWORDS, SCHEMA_PROFILES, sanitizeSchema } from './index.js';

const corpus = TOOL_SCHEMA_CORPUS.map((tool) => ({ ...tool, inputSchema: deepFreeze(tool.inputSchema) }));
const cases = corpus.map((tool) => [`${tool.server}.${tool.name}`, tool.inputSchema] as const);

describe('real-world tool schema corpus', () => {
  it('holds about 30 tools from several servers', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    expect(new Set(corpus.map((tool) => tool.server)).size).toBeGreaterThanOrEqual(6);
  });

  it.each(cases)('%s: every profile runs without mutating the input; the root is an object', (_name, schema) => {
    const before = JSON.stringify(schema);
    for (const profile of SCHEMA_PROFILES) {
      const out = sanitizeSchema(schema, { profile });
      expect(out['type'] ?? (profile === 'none' || profile === 'gemini-json-schema' ? 'object' : undefined)).toBe('object');
      if (profile === 'none') expect(out).toEqual(schema);
    }
    expect(JSON.stringify(schema)).toBe(before);
  });

  it.each(cases)('%s: gemini output has no $schema, additionalProperties, $ref, $defs, nor default next to anyOf', (_name, schema) => {
    const out = sanitizeSchema(schema, { profile: 'gemini' });
    visitSchemas(out, (node, path) => {
      for (const banned of ['$schema', 'additionalProperties', '$ref', '$defs', 'definitions'])
        expect(node, `${path} ${banned}`).not.toHaveProperty(banned);
      if (node['anyOf'] !== undefined) expect(node, path).not.toHaveProperty('default');
      if (Array.isArray(node['type'])) expect((node['type'] as unknown[]).includes('null'), path).toBe(false);
    });
  });

  it.each(cases)("%s: gemini with geminiSchemaFieldsOnly uses only what Gemini's Schema accepts", (_name, schema) => {
    const out = sanitizeSchema(schema, { profile: 'gemini', geminiSchemaFieldsOnly: true });
    const formats: Record<string, string[]> = { string: ['enum', 'date-time'], integer: ['int32', 'int64'], number: ['float', 'double'] };
    visitSchemas(out, (node, path) => {
      for (const keyword of Object.keys(node)) expect(GEMINI_SCHEMA_FIELDS.has(keyword), `${path} ${keyword}`).toBe(true);
      const type = node['type'];
      if (type !== undefined) expect(['string', 'number', 'integer', 'boolean', 'array', 'object'], path).toContain(type);
      if (type !== undefined) expect(node, `${path} type and anyOf`).not.toHaveProperty('anyOf');
      if (node['format'] !== undefined) expect(formats[String(type)] ?? [], path).toContain(node['format']);
      if (node['enum'] !== undefined) {
        expect(type, path).toBe('string');
        expect((node['enum'] as unknown[]).every((value) => typeof value === 'string')).toBe(true);
      }
      const names = Object.keys((node['properties'] as object | undefined) ?? {});
      for (const name of (node['required'] as string[] | undefined) ?? []) expect(names, path).toContain(name);
      expect(Array.isArray(node['items']), path).toBe(false);
    });
  });

  it.each(cases)('%s: openai-strict output follows the strict-mode rules everywhere', (_name, schema) => {
    const out = sanitizeSchema(schema, { profile: 'openai-strict' });
    expect(out).not.toHaveProperty('anyOf');
    visitSchemas(out, (node, path) => {
      for (const keyword of Object.keys(node)) expect(OPENAI_STRICT_KEYWORDS.has(keyword), `${path} ${keyword}`).toBe(true);
      if (typeof node['format'] === 'string') expect(OPENAI_STRICT_FORMATS.has(node['format'])).toBe(true);
      const isObject = node['type'] === 'object' || (Array.isArray(node['type']) && node['type'].includes('object'));
      if (isObject) {
        expect(node['additionalProperties'], path).toBe(false);
        expect(node['required'], path).toEqual(Object.keys(node['properties'] as object));
      }
      const constrained = ['type', 'anyOf', '$ref', 'enum', 'const'].some((keyword) => node[keyword] !== undefined);
      const isDefinitions = /\/(\$defs|definitions)$/.test(path);
      if (!isDefinitions) expect(constrained, `${path} has no type`).toBe(true);
    });
  });

  it.each(cases)('%s: anthropic keeps every property of the root', (_name, schema) => {
    const out = sanitizeSchema(schema, { profile: 'anthropic' });
    expect(out['type']).toBe('object');
    const root = (schema['$ref'] ? Object.values(schema['definitions'] as object)[0] : schema) as Record<string, unknown>;
    expect(Object.keys(out['properties'] as object)).toEqual(Object.keys(root['properties'] as object));
  });
});
