import { describe, expect, it } from 'vitest';
import { jsonBoundsBreach } from './index.js';

/** `{ next: { next: ... } }`, `depth` objects deep, built the way JSON.parse would build it. */
function nested(depth: number): unknown {
  return JSON.parse(`${'{"next":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`);
}

describe('jsonBoundsBreach', () => {
  it('counts levels of nesting: the value itself is level 1', () => {
    expect(jsonBoundsBreach(nested(3), { maxDepth: 3, maxLength: 1000 })).toBeUndefined();
    expect(jsonBoundsBreach(nested(4), { maxDepth: 3, maxLength: 1000 })).toBe('depth');
    expect(jsonBoundsBreach([[[1]]], { maxDepth: 3, maxLength: 1000 })).toBeUndefined();
    expect(jsonBoundsBreach([[[[1]]]], { maxDepth: 3, maxLength: 1000 })).toBe('depth');
    expect(jsonBoundsBreach('text', { maxDepth: 0, maxLength: 1000 })).toBeUndefined();
  });

  it('measures the compact JSON text exactly for values without escapes', () => {
    const value = { a: [1, 'two', true, null, { b: false }], c: {}, d: [], e: -1.5 };
    const length = JSON.stringify(value).length;
    expect(jsonBoundsBreach(value, { maxDepth: 10, maxLength: length })).toBeUndefined();
    expect(jsonBoundsBreach(value, { maxDepth: 10, maxLength: length - 1 })).toBe('length');
  });

  it('measures a million levels without running out of stack, where JSON.stringify throws', () => {
    const deep = nested(1_000_000);
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonBoundsBreach(deep, { maxDepth: 256, maxLength: 100_000_000 })).toBe('depth');
    expect(jsonBoundsBreach(deep, { maxDepth: 2_000_000, maxLength: 100_000_000 })).toBeUndefined();
  });

  it('reports a huge array or object as too long', () => {
    expect(jsonBoundsBreach({ huge: new Array<number>(100_000).fill(0) }, { maxDepth: 10, maxLength: 1000 })).toBe('length');
    const wide = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`k${index}`, index]));
    expect(jsonBoundsBreach(wide, { maxDepth: 10, maxLength: 1000 })).toBe('length');
  });
});
