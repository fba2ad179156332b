import { describe, expect, it } from 'vitest';
import { ToolNameMap } from './tool-name-map.js';

const openaiNames = () => new ToolNameMap({ normalize: (name) => name.replace(/[^a-zA-Z0-9_-]/g, '_'), maxLength: 64 });

describe('ToolNameMap', () => {
  it('keeps valid names, normalises the others and maps both ways', () => {
    const map = openaiNames();
    expect(map.assign(['search', 'files.read'])).toEqual(['search', 'files_read']);
    expect(map.toHost('files_read')).toBe('files.read');
    expect(map.toVendor('files.read')).toBe('files_read');
    expect(map.toHost('unknown')).toBe('unknown');
  });

  it('lets an already valid name keep it and suffixes the normalised one that clashes', () => {
    const map = openaiNames();
    expect(map.assign(['a.b', 'a_b', 'a:b'])).toEqual(['a_b_2', 'a_b', 'a_b_3']);
    expect(map.toHost('a_b')).toBe('a_b');
    expect(map.toHost('a_b_2')).toBe('a.b');
  });

  it('respects the maximum length when suffixing', () => {
    const map = new ToolNameMap({ normalize: (name) => name.replace(/\./g, '_'), maxLength: 5 });
    expect(map.assign(['abcd_', 'abcd.'])).toEqual(['abcd_', 'abc_2']);
  });
});
