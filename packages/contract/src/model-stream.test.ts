import { describe, expect, it } from 'vitest';
import { collectModelStream, type ModelStreamAccumulator, type ModelStreamEvent } from './model-stream.js';

/** Joins numbers; a negative number is an error. */
function summingAccumulator(): ModelStreamAccumulator<number, number> {
  let sum = 0;
  return {
    push(chunk) {
      if (chunk < 0) throw new Error(`negative chunk ${chunk}`);
      sum += chunk;
      return [{ type: 'text-delta', text: String(chunk) }];
    },
    finish: () => sum,
  };
}

describe('collectModelStream', () => {
  it('pushes every chunk, reports the events in order and returns finish()', async () => {
    const events: ModelStreamEvent[] = [];
    const stream = (async function* () {
      yield 1;
      yield 2;
      yield 3;
    })();
    await expect(collectModelStream(stream, summingAccumulator(), { onEvent: (e) => events.push(e) })).resolves.toBe(6);
    expect(events).toEqual(['1', '2', '3'].map((text) => ({ type: 'text-delta', text })));
  });

  it("stops the stream on an error and reports it at once, without waiting for the stream's clean-up", async () => {
    let returned = false;
    let pulled = 0;
    const chunks = [1, -1, 5];
    const stream: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => (pulled < chunks.length ? { done: false, value: chunks[pulled++] as number } : { done: true, value: undefined }),
        return: () => {
          returned = true;
          return new Promise<IteratorResult<number>>(() => {}); // a clean-up that never ends
        },
      }),
    };
    await expect(collectModelStream(stream, summingAccumulator())).rejects.toThrow('negative chunk -1');
    await Promise.resolve();
    await Promise.resolve();
    expect(returned).toBe(true);
    expect(pulled).toBe(2);
  });
});
