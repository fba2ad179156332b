import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTokenStore } from './file-token-store.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import type { StoredOAuthCredentials, TokenStore } from './token-store.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'toolhost-oauth-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const entry = (serverName: string, issuer: string, accessToken: string, updatedAt = 1): StoredOAuthCredentials => ({
  serverName,
  issuer,
  mcpServerUrl: 'https://mcp.example/mcp',
  resource: 'https://mcp.example/mcp',
  tokenEndpoint: `${issuer}/token`,
  client: { clientId: 'c', source: 'configured' },
  token: { accessToken, tokenType: 'Bearer' },
  updatedAt,
});

describe.each([
  ['InMemoryTokenStore', () => new InMemoryTokenStore()],
  ['FileTokenStore', () => new FileTokenStore({ homeDir: home, appDir: '.app' })],
] as Array<[string, () => TokenStore]>)('%s', (_name, create) => {
  it('keeps entries per server and issuer and returns the newest of a server', async () => {
    const store = create();
    await store.set(entry('a', 'https://as1', 't1', 1));
    await store.set(entry('a', 'https://as2', 't2', 2));
    await store.set(entry('b', 'https://as1', 't3', 3));
    await store.set(entry('a', 'https://as1', 't1b', 1));
    expect((await store.get('a'))?.token.accessToken).toBe('t2');
    expect((await store.get('a', 'https://as1'))?.token.accessToken).toBe('t1b');
    expect(await store.list()).toHaveLength(3);
    await store.delete('a', 'https://as2');
    expect((await store.get('a'))?.token.accessToken).toBe('t1b');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
    expect((await store.get('b'))?.token.accessToken).toBe('t3');
  });
});

describe('FileTokenStore on disk', () => {
  it('writes ~/<appDir>/mcp-oauth-tokens.json with mode 0600 in a 0700 directory', async () => {
    const store = new FileTokenStore({ homeDir: home, appDir: '.app' });
    expect(store.filePath).toBe(join(home, '.app', 'mcp-oauth-tokens.json'));
    await store.set(entry('a', 'https://as1', 'secret'));
    expect((await stat(store.filePath)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, '.app'))).mode & 0o777).toBe(0o700);
    expect(JSON.parse(await readFile(store.filePath, 'utf8'))).toMatchObject({ version: 1, entries: [{ serverName: 'a' }] });
  });

  it('never exposes a half-written file and leaves no temporary files behind, under concurrent writes', async () => {
    const store = new FileTokenStore({ homeDir: home });
    await store.set(entry('seed', 'https://as', 'x'));
    let reads = 0;
    let writing = true;
    const reader = (async () => {
      while (writing) {
        JSON.parse(await readFile(store.filePath, 'utf8'));
        reads++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await Promise.all(Array.from({ length: 40 }, (_, i) => store.set(entry(`s${i}`, 'https://as', 'y'.repeat(2000)))));
    writing = false;
    await reader;
    expect(reads).toBeGreaterThan(0);
    expect(await store.list()).toHaveLength(41);
    expect(await readdir(join(home, '.toolhost'))).toEqual(['mcp-oauth-tokens.json']);
  });

  it('removes the file with its last entry, reads a missing file as empty, and reports a corrupt one', async () => {
    const store = new FileTokenStore({ homeDir: home });
    expect(await store.list()).toEqual([]);
    await store.set(entry('a', 'https://as', 't'));
    await store.delete('a');
    await expect(stat(store.filePath)).rejects.toMatchObject({ code: 'ENOENT' });
    await store.set(entry('a', 'https://as', 't'));
    await writeFile(store.filePath, '{ not json');
    const error = await store.get('a').catch((e: unknown) => e);
    expect(OAuthError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect((error as Error).message).toContain(store.filePath);
  });
});
