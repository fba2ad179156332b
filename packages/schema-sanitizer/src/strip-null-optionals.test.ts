import { describe, expect, it } from 'vitest';
import { TOOL_SCHEMA_CORPUS } from './__fixtures__/tool-schema-corpus.js';
import { deepFreeze } from './__fixtures__/visit-schemas.js';
import { stripNullOptionals } from './index.js';

describe('stripNullOptionals', () => {
  const schema = deepFreeze({
    type: 'object',
    properties: {
      q: { type: 'string' },
      page: { type: 'number' },
      cursor: { type: ['string', 'null'] },
      filter: { $ref: '#/$defs/Filter' },
      items: {
        type: 'array',
        items: { type: 'object', properties: { id: { type: 'string' }, note: { type: 'string' } }, required: ['id'] },
      },
      anything: {},
    },
    required: ['q'],
    $defs: { Filter: { type: 'object', properties: { label: { type: 'string' }, mine: { type: 'boolean' } }, required: ['mine'] } },
  });

  it('removes nulls for optional properties that do not accept null, at any depth', () => {
    const args = deepFreeze({
      q: 'bug',
      page: null,
      cursor: null,
      filter: { label: null, mine: null },
      items: [{ id: 'a', note: null }],
      anything: null,
    });
    expect(stripNullOptionals(args, schema)).toEqual({
      q: 'bug',
      cursor: null,
      filter: { mine: null },
      items: [{ id: 'a' }],
      anything: null,
    });
  });

  it('keeps nulls for required properties, unknown properties, and values without a schema', () => {
    expect(stripNullOptionals({ q: null, extra: null }, schema)).toEqual({ q: null, extra: null });
    expect(stripNullOptionals({ a: null }, undefined)).toEqual({ a: null });
    expect(stripNullOptionals('text', schema)).toBe('text');
  });

  it('handles the optional anyOf/null properties of the Atlassian corpus schema', () => {
    const jira = TOOL_SCHEMA_CORPUS.find((tool) => tool.name === 'jira_search')!.inputSchema;
    expect(stripNullOptionals({ jql: 'project = X', limit: null, projects_filter: null }, jira)).toEqual({
      jql: 'project = X',
      projects_filter: null,
    });
  });
});
