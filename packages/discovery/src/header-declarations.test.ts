import { describe, expect, it } from 'vitest';
import { headerDeclarationProblem } from './header-declarations.js';

const withProperty = (property: Record<string, unknown>) => ({ type: 'object', properties: { p: property } });

describe('headerDeclarationProblem', () => {
  it('accepts schemas without declarations and valid declarations at any properties depth', () => {
    expect(headerDeclarationProblem({ type: 'object' })).toBeUndefined();
    expect(headerDeclarationProblem(undefined)).toBeUndefined();
    expect(
      headerDeclarationProblem({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          nested: { type: 'object', properties: { limit: { type: 'integer', 'x-mcp-header': 'X-Limit_2.v~1' } } },
          flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
        },
      }),
    ).toBeUndefined();
  });

  it.each([
    ['an empty name', withProperty({ type: 'string', 'x-mcp-header': '' }), 'empty or non-string'],
    ['a non-string name', withProperty({ type: 'string', 'x-mcp-header': 7 }), 'empty or non-string'],
    ['a space', withProperty({ type: 'string', 'x-mcp-header': 'Two Words' }), 'not an HTTP token'],
    ['a colon', withProperty({ type: 'string', 'x-mcp-header': 'a:b' }), 'not an HTTP token'],
    ['non-ASCII', withProperty({ type: 'string', 'x-mcp-header': 'Régión' }), 'not an HTTP token'],
    ['a control character', withProperty({ type: 'string', 'x-mcp-header': 'a\u0007b' }), 'not an HTTP token'],
    ['a number property', withProperty({ type: 'number', 'x-mcp-header': 'Ratio' }), 'type "number"'],
    ['an object property', withProperty({ type: 'object', 'x-mcp-header': 'Obj' }), 'type "object"'],
    ['an array property', withProperty({ type: 'array', 'x-mcp-header': 'Arr' }), 'type "array"'],
    ['a null property', withProperty({ type: 'null', 'x-mcp-header': 'Nothing' }), 'type "null"'],
    ['a property without type', withProperty({ 'x-mcp-header': 'Any' }), 'type null'],
    ['a type list', withProperty({ type: ['string', 'null'], 'x-mcp-header': 'Maybe' }), 'only string, integer and boolean'],
  ])('refuses %s', (_label, schema, expected) => {
    expect(headerDeclarationProblem(schema)).toContain(expected);
  });

  it.each([
    'Authorization',
    'proxy-authorization',
    'COOKIE',
    'Host',
    'Content-Length',
    'Transfer-Encoding',
    'Mcp-Session-Id',
    'MCP-Protocol-Version',
  ])('refuses a declaration named %s (a credential, HTTP or MCP header)', (name) => {
    expect(headerDeclarationProblem(withProperty({ type: 'string', 'x-mcp-header': name }))).toBe(
      `property "p" declares x-mcp-header ${JSON.stringify(name)}, the name of a credential, HTTP or MCP header, which a tool parameter may not take`,
    );
  });

  it('refuses the same name twice, compared without case', () => {
    const problem = headerDeclarationProblem({
      type: 'object',
      properties: {
        a: { type: 'string', 'x-mcp-header': 'Trace' },
        b: { type: 'object', properties: { c: { type: 'string', 'x-mcp-header': 'TRACE' } } },
      },
    });
    expect(problem).toBe('x-mcp-header "TRACE" is declared twice (also as "Trace"; header names ignore case)');
  });

  it.each([
    ['the root', { type: 'object', 'x-mcp-header': 'Root' }],
    ['items', withProperty({ type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } })],
    ['prefixItems', withProperty({ type: 'array', prefixItems: [{ type: 'string', 'x-mcp-header': 'First' }] })],
    ['additionalProperties', withProperty({ type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' } })],
    ['anyOf', withProperty({ anyOf: [{ type: 'string', 'x-mcp-header': 'Choice' }, { type: 'null' }] })],
    ['oneOf', { type: 'object', oneOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] }],
    ['if/then', { type: 'object', if: { properties: {} }, then: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } }],
    ['$defs', { type: 'object', $defs: { x: { type: 'string', 'x-mcp-header': 'Def' } }, properties: { p: { $ref: '#/$defs/x' } } }],
    ['patternProperties', { type: 'object', patternProperties: { '^x': { type: 'string', 'x-mcp-header': 'Pattern' } } }],
    [
      'properties below items',
      withProperty({ type: 'array', items: { type: 'object', properties: { q: { type: 'string', 'x-mcp-header': 'Deep' } } } }),
    ],
  ])('refuses a declaration under %s', (_label, schema) => {
    expect(headerDeclarationProblem(schema)).toContain('not allowed');
  });

  it('quotes property names, so control characters from a server never reach a log raw', () => {
    const problem = headerDeclarationProblem({
      type: 'object',
      properties: { '\u001b[31mred': { type: 'number', 'x-mcp-header': 'Red' } },
    });
    expect(problem).toContain('property "\\u001b[31mred"');
    expect(problem).not.toContain('\u001b');
  });

  it('does not mistake data for schemas: a declaration-shaped default or example is not checked', () => {
    expect(
      headerDeclarationProblem(
        withProperty({ type: 'object', default: { 'x-mcp-header': 'No Token' }, examples: [{ 'x-mcp-header': '' }] }),
      ),
    ).toBeUndefined();
  });
});
