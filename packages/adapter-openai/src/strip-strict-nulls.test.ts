import { describe, expect, it } from 'vitest';
import { stripStrictNulls } from './strip-strict-nulls.js';

const schema = {
  type: 'object',
  properties: {
    query: { type: 'string' },
    limit: { type: 'integer' },
    cursor: { type: ['string', 'null'] },
    filter: {
      type: 'object',
      properties: { tag: { type: 'string' }, owner: { $ref: '#/$defs/owner' } },
      required: ['tag'],
    },
    items: { type: 'array', items: { type: 'object', properties: { note: { type: 'string' } } } },
    anything: {},
  },
  required: ['query'],
  $defs: { owner: { type: 'string' } },
};

describe('stripStrictNulls', () => {
  it('drops nulls of optional properties that never allowed null, at every depth', () => {
    const args = {
      query: 'mcp',
      limit: null,
      cursor: null,
      filter: { tag: 'a', owner: null },
      items: [{ note: null }, { note: 'kept' }],
      anything: null,
    };
    expect(stripStrictNulls(args, schema)).toEqual({
      query: 'mcp',
      cursor: null,
      filter: { tag: 'a' },
      items: [{}, { note: 'kept' }],
      anything: null,
    });
  });

  it('keeps a null the model sent for a required property (the server decides)', () => {
    expect(stripStrictNulls({ query: null }, schema)).toEqual({ query: null });
  });

  it('keeps keys the schema does not know and does not change its input', () => {
    const args = { query: 'x', extra: null };
    expect(stripStrictNulls(args, schema)).toEqual({ query: 'x', extra: null });
    expect(args).toEqual({ query: 'x', extra: null });
  });

  it('drops nulls of optional properties declared in allOf and anyOf members (strict mode merges allOf)', () => {
    const composed = {
      type: 'object',
      allOf: [{ $ref: '#/$defs/paging' }, { properties: { query: { type: 'string' } }, required: ['query'] }],
      $defs: { paging: { type: 'object', properties: { limit: { type: 'integer' } } } },
    };
    expect(stripStrictNulls({ query: 'mcp', limit: null }, composed)).toEqual({ query: 'mcp' });
    const union = {
      type: 'object',
      properties: { target: { anyOf: [{ type: 'object', properties: { path: { type: 'string' } } }, { type: 'string' }] } },
    };
    expect(stripStrictNulls({ target: { path: null } }, union)).toEqual({ target: {} });
  });
});
