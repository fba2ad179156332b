// FileResultStore on a real folder: private modes, atomic writes, bounds, expiry, and ids or files
// planted by someone else never leading outside the folder.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ResultBudgetError, readStoredResult } from '../index.js';
import { FileResultStore } from './index.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'result-store-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const posix = process.platform !== 'win32';

describe('FileResultStore', () => {
  it('writes one private file per result (folder 0700, file 0600) that a new store reads back', async () => {
    const directory = join(root, 'results');
    const store = new FileResultStore({ directory });
    const media = [{ type: 'inlineData' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=', source: 'image' as const }];
    const text = `${'行'.repeat(1000)}😀${'x'.repeat(100_000)}`;
    const id = await store.put({ text, media, toolName: 'read_file', serverName: 'fs' });
    expect(await readdir(directory)).toEqual([`${id}.json`]);
    if (posix) {
      expect((await stat(directory)).mode & 0o777).toBe(0o700);
      expect((await stat(join(directory, `${id}.json`))).mode & 0o777).toBe(0o600);
    }
    const again = new FileResultStore({ directory });
    expect(await again.get(id)).toMatchObject({ id, text, media, toolName: 'read_file', serverName: 'fs' });
    const page = await readStoredResult(again, { id, offset: 1000, length: 1 });
    expect(page.text).toBe('😀');
    expect(await again.delete(id)).toBe(true);
    expect(await again.get(id)).toBeUndefined();
    expect(await again.delete(id)).toBe(false);
  });

  it('refuses hostile ids before building a path, so nothing outside the folder is read or removed', async () => {
    const directory = join(root, 'results');
    const outside = join(root, 'outside.json');
    await writeFile(outside, JSON.stringify({ v: 1, id: '../outside', text: 'secret', media: [], createdAt: 0, expiresAt: 9e15, size: 6 }));
    const store = new FileResultStore({ directory });
    await store.put({ text: 'mine' });
    for (const id of [
      '../outside',
      '..%2Foutside',
      `/${outside}`,
      outside,
      'res_\u0000AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      `res_${'A'.repeat(31)}/`,
      '',
    ]) {
      expect(await store.get(id)).toBeUndefined();
      expect(await store.delete(id)).toBe(false);
    }
    expect(await readFile(outside, 'utf8')).toContain('secret');
  });

  it.runIf(posix)('never follows a symbolic link planted under an entry name, nor writes into a folder that is a link', async () => {
    const directory = join(root, 'results');
    const store = new FileResultStore({ directory });
    await store.put({ text: 'mine' });
    const secret = join(root, 'secret.json');
    const id = 'res_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';
    await writeFile(secret, JSON.stringify({ v: 1, id, text: 'secret', media: [], createdAt: 0, expiresAt: 9e15, size: 6 }));
    await symlink(secret, join(directory, `${id}.json`));
    expect(await store.get(id)).toBeUndefined();

    const real = join(root, 'elsewhere');
    await mkdir(real);
    const linked = join(root, 'linked');
    await symlink(real, linked);
    const error = await new FileResultStore({ directory: linked }).put({ text: 'x' }).catch((caught: unknown) => caught);
    expect(ResultBudgetError.isInstance(error) && error.code === 'STORE_FAILED').toBe(true);
    expect((error as Error).message).toContain(`The result folder ${linked} is not a folder`);
    expect(await readdir(real)).toEqual([]);
  });

  it('reports a damaged or hand-made entry file as STORE_FAILED naming it', async () => {
    const directory = join(root, 'results');
    const store = new FileResultStore({ directory });
    const id = await store.put({ text: 'fine' });
    const path = join(directory, `${id}.json`);
    for (const content of ['{not json', JSON.stringify({ v: 1, id: 'res_other', text: 'x', media: [] }), JSON.stringify({ v: 2 })]) {
      await writeFile(path, content);
      const error = await store.get(id).catch((caught: unknown) => caught);
      expect(ResultBudgetError.isInstance(error) && error.code === 'STORE_FAILED').toBe(true);
      expect((error as Error).message).toBe(
        `The stored result file ${path} is not a result this store wrote (damaged or changed by hand); delete it.`,
      );
    }
    await writeFile(path, 'x'.repeat(70_000));
    const small = new FileResultStore({ directory, maxEntryBytes: 100 });
    await expect(small.get(id)).rejects.toThrow(/larger than this store ever writes/);
  });

  it('expires entries, removes the oldest to stay within maxTotalBytes and maxEntries, and cleans stale temporary files', async () => {
    const directory = join(root, 'results');
    let now = Date.now();
    const store = new FileResultStore({ directory, maxEntries: 3, maxTotalBytes: 1_000_000, ttlMs: 60_000, now: () => now });
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      ids.push(await store.put({ text: `entry ${index}` }));
      // File times order the entries: make each one visibly older than the next.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const left = (await readdir(directory)).sort();
    expect(left).toEqual(
      ids
        .slice(2)
        .map((id) => `${id}.json`)
        .sort(),
    );

    const big = new FileResultStore({ directory: join(root, 'big'), maxTotalBytes: 200_000, maxEntryBytes: 150_000 });
    const first = await big.put({ text: 'a'.repeat(120_000) });
    const second = await big.put({ text: 'b'.repeat(120_000) });
    expect(await big.get(first)).toBeUndefined();
    expect((await big.get(second))?.text.length).toBe(120_000);
    await expect(big.put({ text: 'c'.repeat(300_000) })).rejects.toMatchObject({ code: 'RESULT_TOO_LARGE' });

    // A temporary file left by a process that died mid-write, older than the lifetime: removed on the next put.
    const stale = join(directory, `.${ids[4]}.0123456789ab.tmp`);
    await writeFile(stale, 'partial');
    now += 3_600_000;
    expect(await store.get(ids[4] as string)).toBeUndefined();
    const fresh = await store.put({ text: 'fresh' });
    expect(await readdir(directory)).toEqual([`${fresh}.json`]);
  });
});
