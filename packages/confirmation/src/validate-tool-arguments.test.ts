import { describe, expect, it } from 'vitest';
import { validateToolArguments } from './index.js';

const inputSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    owner: { type: 'string' },
    count: { type: 'integer', minimum: 1 },
    state: { type: 'string', enum: ['open', 'closed'] },
    when: { type: 'string', format: 'date-time' },
    odd: { type: 'string', format: 'made-up-format' },
  },
  required: ['owner'],
  additionalProperties: false,
};
const run = (args: unknown, schema: unknown = inputSchema) =>
  validateToolArguments({ serverName: 'github', toolName: 'list_issues', inputSchema: schema, arguments: args });

describe('validateToolArguments', () => {
  it('accepts valid arguments, ignoring unknown formats', () => {
    expect(run({ owner: 'octo', count: 2, state: 'open', when: '2025-01-01T00:00:00Z', odd: 'anything' })).toEqual({ valid: true });
  });

  it('rejects invalid arguments with every problem in a message written for the model', () => {
    const result = run({ count: 0, state: 'merged', when: 'yesterday', extra: 1 });
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.error.code).toBe('INVALID_TOOL_ARGUMENTS');
    expect(result.error.serverName).toBe('github');
    expect(result.error.toolName).toBe('list_issues');
    expect(result.error.issues.map((i) => i.path).sort()).toEqual(['', '', '/count', '/state', '/when']);
    expect(result.error.message).toMatch(/^Invalid arguments for tool 'list_issues' \(MCP server 'github'\): /);
    expect(result.error.message).toContain("params must have required property 'owner'");
    expect(result.error.message).toContain("params must NOT have additional properties ('extra')");
    expect(result.error.message).toContain('params/state must be equal to one of the allowed values ("open", "closed")');
    expect(result.error.message).toContain('The tool was not called');
  });

  it('rejects arguments that are not an object, and treats undefined as {}', () => {
    const result = run(['a']);
    expect(result.valid === false && result.error.issues).toEqual([{ path: '', message: 'must be an object' }]);
    expect(run(undefined, { type: 'object', properties: {} })).toEqual({ valid: true });
    expect(run(undefined).valid).toBe(false);
  });

  it('uses draft 2020-12 when the schema says so, and supports recursive $ref', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { node: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Node' } } }, additionalProperties: false },
      },
    };
    expect(run({ node: { kids: [{ kids: [] }] } }, schema)).toEqual({ valid: true });
    expect(run({ node: { kids: [{ bad: 1 }] } }, schema).valid).toBe(false);
  });

  it('does not enforce a schema that cannot be compiled, and says why', () => {
    const result = run({ a: 1 }, { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
    expect(result.valid).toBe(true);
    expect(result.valid && result.skipped).toMatch(/could not be compiled/);
  });

  it('tolerates two tools that share a root $id', () => {
    const one = { $id: 'urn:same', type: 'object', properties: { a: { type: 'string' } } };
    const two = { $id: 'urn:same', type: 'object', properties: { a: { type: 'number' } } };
    expect(run({ a: 'x' }, one).valid).toBe(true);
    expect(run({ a: 'x' }, two).valid).toBe(false);
  });
});

describe('validateToolArguments on hostile schemas', () => {
  it('does not throw on a schema nested 10 000 levels deep', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 10_000; level++) schema = { type: 'object', properties: { child: schema } };
    const result = validateToolArguments({ serverName: 's', toolName: 'deep', inputSchema: schema, arguments: { child: { child: 'x' } } });
    expect(typeof result.valid).toBe('boolean');
  });
});
