// MemoryResultStore: bounded per entry and in total, expiring, oldest first, unguessable ids.
import { describe, expect, it } from 'vitest';
import { MemoryResultStore, ResultBudgetError, createResultId, isResultId, storedResultSize } from './index.js';

function clock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('MemoryResultStore', () => {
  it('stores, gets and deletes a result under a random id that says nothing about its content', async () => {
    const store = new MemoryResultStore();
    const media = [{ type: 'inlineData' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=', source: 'image' as const }];
    const first = await store.put({ text: 'same text', media, toolName: 'search', serverName: 'github' });
    const second = await store.put({ text: 'same text' });
    expect(isResultId(first)).toBe(true);
    expect(first).not.toBe(second);
    expect(first).not.toContain('same');
    const stored = await store.get(first);
    expect(stored).toMatchObject({ id: first, text: 'same text', media, toolName: 'search', serverName: 'github' });
    expect(stored?.size).toBe(storedResultSize({ text: 'same text', media, toolName: 'search', serverName: 'github' }));
    expect(await store.delete(first)).toBe(true);
    expect(await store.get(first)).toBeUndefined();
    expect(await store.delete(first)).toBe(false);
    expect((await store.get(second))?.media).toEqual([]);
  });

  it('makes ids of 192 random bits in base64url, never repeated', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => createResultId()));
    expect(ids.size).toBe(10_000);
    for (const id of [...ids].slice(0, 100)) expect(id).toMatch(/^res_[A-Za-z0-9_-]{32}$/);
  });

  it('answers undefined for ids it never gave, whatever their form', async () => {
    const store = new MemoryResultStore();
    await store.put({ text: 'x' });
    for (const id of [
      '',
      'res_',
      '../etc/passwd',
      'res_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      '__proto__',
      'constructor',
      `res_${'A'.repeat(10_000)}`,
      42 as never,
    ]) {
      expect(await store.get(id)).toBeUndefined();
      expect(await store.delete(id)).toBe(false);
    }
  });

  it('expires entries after ttlMs', async () => {
    const time = clock();
    const store = new MemoryResultStore({ ttlMs: 60_000, now: time.now });
    const id = await store.put({ text: 'short-lived' });
    time.advance(59_999);
    expect((await store.get(id))?.text).toBe('short-lived');
    time.advance(1);
    expect(await store.get(id)).toBeUndefined();
    expect(store.count).toBe(0);
  });

  it('drops expired entries on put, then the oldest until the new one fits (bytes and count)', async () => {
    const time = clock();
    const store = new MemoryResultStore({ maxTotalBytes: 3000, maxEntries: 3, ttlMs: 10_000, now: time.now });
    const a = await store.put({ text: 'a'.repeat(1000) });
    time.advance(1);
    const b = await store.put({ text: 'b'.repeat(1000) });
    time.advance(1);
    const c = await store.put({ text: 'c'.repeat(900) });
    expect(store.size).toBe(2900);
    const d = await store.put({ text: 'd'.repeat(500) });
    expect(await store.get(a)).toBeUndefined();
    expect((await store.get(b))?.text.length).toBe(1000);
    expect(store.size).toBe(2400);
    const e = await store.put({ text: 'e' });
    // Count bound: three entries at most, the oldest (b) went.
    expect(await store.get(b)).toBeUndefined();
    expect([await store.get(c), await store.get(d), await store.get(e)].every((entry) => entry !== undefined)).toBe(true);
    time.advance(20_000);
    await store.put({ text: 'f' });
    expect(store.count).toBe(1);
  });

  it('refuses an entry larger than maxEntryBytes with RESULT_TOO_LARGE, counting UTF-8 bytes', async () => {
    const store = new MemoryResultStore({ maxEntryBytes: 1000 });
    await expect(store.put({ text: '€'.repeat(400) })).rejects.toSatisfy(
      (error: unknown) => ResultBudgetError.isInstance(error) && error.code === 'RESULT_TOO_LARGE' && /1\.2 KB.*1 KB/.test(error.message),
    );
    expect(await store.put({ text: '€'.repeat(333) })).toMatch(/^res_/);
  });

  it('rejects limits that are not positive numbers with INVALID_OPTIONS naming the field', () => {
    expect(() => new MemoryResultStore({ ttlMs: 0 })).toThrow(/ttlMs must be a positive number/);
    expect(() => new MemoryResultStore({ maxEntries: Number.NaN })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });
});
