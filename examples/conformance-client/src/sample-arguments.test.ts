import { describe, expect, it } from 'vitest';
import { sampleArguments } from './sample-arguments.js';

describe('sampleArguments', () => {
  it('fills every property from its schema', () => {
    expect(
      sampleArguments({
        type: 'object',
        properties: {
          a: { type: 'number' },
          b: { type: 'integer' },
          mode: { type: 'string', enum: ['fast', 'slow'] },
          name: { type: 'string', default: 'Ada' },
          flag: { type: 'boolean' },
          nested: { type: 'object', properties: { x: { type: 'string' } } },
        },
        required: ['a', 'b'],
      }),
    ).toEqual({ a: 2, b: 3, mode: 'fast', name: 'Ada', flag: true, nested: { x: 'value-1' } });
  });

  it('gives an empty object for a schema without properties', () => {
    expect(sampleArguments({ type: 'object' })).toEqual({});
  });
});
