import { describe, expect, it } from 'vitest';
import { describeToolArguments } from './describe-tool-arguments.js';

describe('describeToolArguments', () => {
  it('shows short arguments as JSON', () => {
    expect(describeToolArguments({ path: 'a.txt', lines: 3 })).toBe('{"path":"a.txt","lines":3}');
  });

  it('names at most five parameters when the JSON is longer than 500 characters', () => {
    const args = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((name) => [name, 'x'.repeat(100)]));
    expect(describeToolArguments(args)).toBe('[Payload omitted due to length with parameters: a, b, c, d, e, ...]');
  });
});
