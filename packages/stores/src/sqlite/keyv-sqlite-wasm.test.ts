// KeyvSqliteWasm through Keyv on a real SQLite file (node-sqlite3-wasm: no native addon): values
// outlive the process's handle, namespaces are kept apart, the file is private to its owner, and
// two handles on one file (as two processes would have) wait for each other's locks.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyv } from 'keyv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoresError } from '../stores-error.js';
import { KeyvSqliteWasm } from './keyv-sqlite-wasm.js';

let dir: string;
let path: string;
const opened: KeyvSqliteWasm[] = [];
function open(options: { table?: string } = {}): KeyvSqliteWasm {
  const store = new KeyvSqliteWasm({ path, ...options });
  opened.push(store);
  return store;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'toolhost-sqlite-adapter-'));
  path = join(dir, 'store.sqlite');
});
afterEach(async () => {
  for (const store of opened.splice(0)) await store.disconnect();
  await rm(dir, { recursive: true, force: true });
});

describe('KeyvSqliteWasm', () => {
  it('keeps values in the file across handles, with a private file mode', async () => {
    const first = open();
    const keyv = new Keyv({ store: first, throwOnErrors: true });
    await keyv.set('greeting', { text: 'hello', list: [1, 2] });
    await keyv.set('gone', 'soon');
    expect(await keyv.delete('gone')).toBe(true);
    await first.disconnect();
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const again = new Keyv({ store: open(), throwOnErrors: true });
    expect(await again.get('greeting')).toEqual({ text: 'hello', list: [1, 2] });
    expect(await again.get('gone')).toBeUndefined();
    expect(await again.has('greeting')).toBe(true);
  });

  it('keeps namespaces apart: clear and the iterator see only their own', async () => {
    const one = new Keyv({ store: open(), namespace: 'one', throwOnErrors: true });
    const two = new Keyv({ store: open(), namespace: 'two_%', throwOnErrors: true });
    await one.set('a', 1);
    await one.set('b', 2);
    await two.set('a', 3);
    const seen: Array<[unknown, unknown]> = [];
    for await (const [key, value] of one.iterator?.(undefined) ?? []) seen.push([key, value]);
    expect(seen).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    await two.clear();
    expect(await two.get('a')).toBeUndefined();
    expect(await one.get('a')).toBe(1);
  });

  it('lets one handle take the lease lock while another waits, across handles on one file', async () => {
    const first = open();
    const second = open();
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const firstEntered = new Promise<void>((resolve) => (entered = resolve));
    const one = first.locks.withLock('name', async () => {
      order.push('first');
      entered();
      await held;
    });
    await firstEntered;
    const two = second.locks.withLock('name', async () => void order.push('second'), { waitMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(order).toEqual(['first']);
    release();
    await Promise.all([one, two]);
    expect(order).toEqual(['first', 'second']);
  });

  it('refuses a table name that is not an identifier', () => {
    expect(() => open({ table: 'keyv; DROP TABLE x' })).toThrow(StoresError);
  });
});
