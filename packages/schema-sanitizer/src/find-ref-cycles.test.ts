import { describe, expect, it } from 'vitest';
import { TOOL_SCHEMA_CORPUS } from './__fixtures__/tool-schema-corpus.js';
import { findRefCycles, hasRefCycle } from './index.js';

describe('findRefCycles', () => {
  it('finds direct, mutual and root recursion', () => {
    expect(
      findRefCycles({
        $defs: { Node: { properties: { kids: { items: { $ref: '#/$defs/Node' } } } } },
        properties: { n: { $ref: '#/$defs/Node' } },
      }),
    ).toEqual(['#/$defs/Node']);
    expect(findRefCycles({ $defs: { A: { properties: { b: { $ref: '#/$defs/B' } } }, B: { items: { $ref: '#/$defs/A' } } } })).toEqual([
      '#/$defs/A',
      '#/$defs/B',
    ]);
    expect(findRefCycles({ type: 'object', properties: { next: { $ref: '#' } } })).toEqual(['#']);
  });

  it('reports no cycle for acyclic refs, remote refs and chains', () => {
    expect(
      hasRefCycle({
        $defs: { A: { $ref: '#/$defs/B' }, B: { type: 'string' } },
        properties: { a: { $ref: '#/$defs/A' }, r: { $ref: 'https://x/y.json' } },
      }),
    ).toBe(false);
    expect(hasRefCycle(undefined)).toBe(false);
  });

  it('flags exactly the recursive tool of the corpus', () => {
    const cyclic = TOOL_SCHEMA_CORPUS.filter((tool) => hasRefCycle(tool.inputSchema)).map((tool) => tool.name);
    expect(cyclic).toEqual(['save_outline']);
  });
});
