import { describe, expect, it } from 'vitest';
import { createToolNameMap } from './create-tool-name-map.js';

const toOpenAIName = (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_');

describe('createToolNameMap', () => {
  it('keeps valid names, normalises the others and maps both ways', () => {
    const map = createToolNameMap(['search', 'files.read'], { normalize: toOpenAIName, maxLength: 64 });
    expect(map.vendorNames).toEqual(['search', 'files_read']);
    expect(map.toHost('files_read')).toBe('files.read');
    expect(map.toVendor('files.read')).toBe('files_read');
    expect(map.toHost('unknown')).toBe('unknown');
    expect(map.toVendor('undeclared')).toBe('undeclared');
  });

  it('lets an already valid name keep it and suffixes the normalised one that clashes', () => {
    const map = createToolNameMap(['a.b', 'a_b', 'a:b'], { normalize: toOpenAIName, maxLength: 64 });
    expect(map.vendorNames).toEqual(['a_b_2', 'a_b', 'a_b_3']);
    expect(map.toHost('a_b')).toBe('a_b');
    expect(map.toHost('a_b_2')).toBe('a.b');
    expect(map.toHost('a_b_3')).toBe('a:b');
  });

  it('respects the maximum length when cutting and suffixing', () => {
    const map = createToolNameMap(['abcd_', 'abcd.'], { normalize: (name) => name.replace(/\./g, '_'), maxLength: 5 });
    expect(map.vendorNames).toEqual(['abcd_', 'abc_2']);
    const long = createToolNameMap(['x'.repeat(70)], { normalize: (name) => name });
    expect(long.vendorNames[0]).toBe('x'.repeat(64));
    expect(long.toHost('x'.repeat(64))).toBe('x'.repeat(70));
  });

  it('builds an independent map per call and does not touch its input', () => {
    const hostNames = Object.freeze(['files.read']);
    const first = createToolNameMap(hostNames, { normalize: toOpenAIName });
    const second = createToolNameMap(['search'], { normalize: toOpenAIName });
    expect(first.toHost('files_read')).toBe('files.read');
    expect(second.toHost('files_read')).toBe('files_read');
    expect(hostNames).toEqual(['files.read']);
  });
});
