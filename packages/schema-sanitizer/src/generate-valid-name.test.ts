import { describe, expect, it } from 'vitest';
import { generateValidName, MAX_TOOL_NAME_LENGTH } from './generate-valid-name.js';

describe('generateValidName', () => {
  it('replaces every character outside a-z A-Z 0-9 _ . - with _', () => {
    expect(generateValidName('my tool/v2:run!')).toBe('my_tool_v2_run_');
    expect(generateValidName('ok.name-1_x')).toBe('ok.name-1_x');
    expect(generateValidName('日本')).toBe('__');
  });

  it('keeps the first 28 and last 32 characters of a long name around ___', () => {
    const long = 'a'.repeat(30) + 'b'.repeat(10) + 'c'.repeat(40);
    const out = generateValidName(long);
    expect(out).toHaveLength(63);
    expect(out).toBe('a'.repeat(28) + '___' + 'c'.repeat(32));
    expect(generateValidName('x'.repeat(MAX_TOOL_NAME_LENGTH))).toBe('x'.repeat(63));
  });
});
