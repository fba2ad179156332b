// Paging through a stored result: exact text back, never half a surrogate pair, bounded pages,
// clear errors the model can act on.
import { describe, expect, it } from 'vitest';
import {
  MAX_PAGE_LENGTH,
  MemoryResultStore,
  READ_TOOL_RESULT_INPUT_SCHEMA,
  ResultBudgetError,
  describePage,
  readStoredResult,
  type ResultStore,
} from './index.js';

async function readAll(store: ResultStore, id: string, length: number): Promise<{ text: string; pages: number }> {
  let page = await readStoredResult(store, { id, offset: 0, length });
  let text = page.text;
  let pages = 1;
  while (page.nextOffset !== undefined) {
    expect(page.nextOffset).toBe(page.offset + page.text.length);
    const next: number = page.nextOffset;
    page = await readStoredResult(store, { id, offset: next, length });
    // Each page starts where the last one said: a page ending inside a pair would be moved back and read again forever.
    expect(page.offset).toBe(next);
    text += page.text;
    pages++;
  }
  return { text, pages };
}

describe('readStoredResult', () => {
  it('gives the full text back page by page, exactly, with no page ending inside a surrogate pair', async () => {
    const store = new MemoryResultStore();
    const text = `${'😀a'.repeat(5000)}${'𝔘'.repeat(3001)}end`;
    const id = await store.put({ text });
    for (const length of [1, 2, 3, 7, 1000, 4096]) {
      const { text: back, pages } = await readAll(store, id, length);
      expect(back).toBe(text);
      expect(pages).toBeGreaterThan(0);
    }
    const page = await readStoredResult(store, { id, offset: 0, length: 5 });
    expect(page.text).toBe('😀a😀');
    expect(page.nextOffset).toBe(5);
  });

  it('moves an offset that falls inside a pair back to the pair, and answers an empty last page past the end', async () => {
    const store = new MemoryResultStore();
    const id = await store.put({ text: 'ab😀cd' });
    expect(await readStoredResult(store, { id, offset: 3, length: 2 })).toEqual({
      id,
      text: '😀',
      offset: 2,
      nextOffset: 4,
      totalLength: 6,
    });
    expect(await readStoredResult(store, { id, offset: 999 })).toEqual({ id, text: '', offset: 6, totalLength: 6 });
    expect(await readStoredResult(store, { id })).toEqual({ id, text: 'ab😀cd', offset: 0, totalLength: 6 });
  });

  it('bounds the page length by maxLength, and uses the default length when none is asked for', async () => {
    const store = new MemoryResultStore();
    const id = await store.put({ text: 'x'.repeat(500_000) });
    expect((await readStoredResult(store, { id, length: 10_000_000 })).text.length).toBe(200_000);
    expect((await readStoredResult(store, { id, length: 10_000_000 }, { maxLength: 1000 })).text.length).toBe(1000);
    expect((await readStoredResult(store, { id })).text.length).toBe(40_000);
    expect((await readStoredResult(store, { id }, { defaultLength: 123 })).nextOffset).toBe(123);
  });

  it('answers RESULT_NOT_FOUND for an unknown or expired id, quoting the id escaped and cut', async () => {
    let now = 0;
    const store = new MemoryResultStore({ ttlMs: 1000, now: () => now });
    const id = await store.put({ text: 'soon gone' });
    now = 1000;
    for (const bad of [id, 'res_nope', `\u001b[31m${'x'.repeat(500)}`, 12, undefined]) {
      const error = await readStoredResult(store, { id: bad }).catch((caught: unknown) => caught);
      expect(ResultBudgetError.isInstance(error) && error.code === 'RESULT_NOT_FOUND').toBe(true);
      const message = (error as Error).message;
      expect(message).toMatch(
        /^No stored tool result has the id .*: it expired, was removed to make room .* Call the tool again to get a fresh result\.$/,
      );
      expect(message).not.toContain('\u001b');
      expect(message.length).toBeLessThan(400);
    }
  });

  it('answers INVALID_TOOL_ARGUMENTS for an offset or length that is not a whole number of 0 or more', async () => {
    const store = new MemoryResultStore();
    const id = await store.put({ text: 'abc' });
    for (const request of [
      { offset: -1 },
      { offset: 1.5 },
      { offset: '10' },
      { length: -5 },
      { length: Number.POSITIVE_INFINITY },
      { offset: 2 ** 60 },
    ]) {
      const error = await readStoredResult(store, { id, ...request }).catch((caught: unknown) => caught);
      expect(ResultBudgetError.isInstance(error) && error.code === 'INVALID_TOOL_ARGUMENTS').toBe(true);
      expect((error as Error).message).toMatch(/^read_tool_result: "(offset|length)" must be a whole number of 0 or more; got /);
    }
  });

  it('describes a page for the model with plain offsets it can pass back', async () => {
    const store = new MemoryResultStore();
    const id = await store.put({ text: 'y'.repeat(100_000) });
    expect(describePage(await readStoredResult(store, { id, length: 40_000 }))).toBe(
      '[characters 0 to 40000 of 100000 (100,000); the next page starts at offset 40000]',
    );
    expect(describePage(await readStoredResult(store, { id, offset: 80_000 }))).toBe(
      '[characters 80000 to 100000 of 100000 (100,000); this is the last page]',
    );
  });

  it('offers a tool schema whose bounds are the ones readStoredResult applies', async () => {
    const { properties, required } = READ_TOOL_RESULT_INPUT_SCHEMA;
    expect(required).toEqual(['id']);
    expect(properties.length.maximum).toBe(MAX_PAGE_LENGTH);
    const store = new MemoryResultStore();
    const id = await store.put({ text: 'z'.repeat(MAX_PAGE_LENGTH + 10) });
    expect((await readStoredResult(store, { id, length: properties.length.maximum })).text.length).toBe(MAX_PAGE_LENGTH);
    await expect(readStoredResult(store, { id, offset: properties.offset.minimum - 1 })).rejects.toMatchObject({
      code: 'INVALID_TOOL_ARGUMENTS',
    });
  });
});
