// The backends the tests run against: the redis-server and PostgreSQL of the globalSetup, and an
// SQLite file in a temporary folder. Each opens a fresh adapter (a separate "instance"), and can
// dump what the database really holds for a fragment of a key, read without Keyv.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import KeyvPostgres from '@keyv/postgres';
import KeyvRedis, { createClient } from '@keyv/redis';
import sqliteWasm from 'node-sqlite3-wasm';
import pg from 'pg';
import { inject } from 'vitest';
// Types inject('redisUrl') and inject('postgresUrl'): the globalSetup that provides them declares them.
import type {} from '@toolhost-internal/fixtures/databases';
import type { KeyvStore } from '../keyv-backend.js';
import { KeyvSqliteWasm } from '../sqlite/keyv-sqlite-wasm.js';

/** The backends every store test runs on. */
export const BACKENDS = ['redis', 'postgres', 'sqlite'] as const;
/** One of {@link BACKENDS}. */
export type BackendKind = (typeof BACKENDS)[number];

/** A backend for one test: `open()` makes a new adapter on the same data, as another instance would. */
export interface TestBackend {
  /** A new adapter on the backend's data (closed by `close`). */
  open(): KeyvStore;
  /** Every key holding `fragment` and its value, as the database stores them (no Keyv, no decryption). */
  dump(fragment: string): Promise<Array<{ key: string; value: string }>>;
  /** Store `value` under `key` as the database stores it (no Keyv). */
  put(key: string, value: string): Promise<void>;
  /** A JavaScript expression (ES module, top-level await allowed) that opens an adapter on the same data in another process. */
  readonly openInChild: string;
  /** Close every adapter and remove temporary files. */
  close(): Promise<void>;
}

/** Opens a backend of `kind` (sqlite: a new file in a new temporary folder). */
export async function openBackend(kind: BackendKind): Promise<TestBackend> {
  const closers: Array<() => Promise<void>> = [];
  const close = async (): Promise<void> => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
  };
  switch (kind) {
    case 'redis': {
      const url = inject('redisUrl');
      const raw = createClient({ url });
      await raw.connect();
      closers.push(async () => void (await raw.close()));
      return {
        open() {
          const store = new KeyvRedis(url, { throwOnErrors: true });
          closers.push(() => store.disconnect());
          return store;
        },
        async dump(fragment) {
          const keys = (await raw.keys(`*${fragment.replace(/[*?[\]\\]/g, '\\$&')}*`)).sort();
          return Promise.all(keys.map(async (key) => ({ key, value: String(await raw.get(key)) })));
        },
        async put(key, value) {
          await raw.set(key, value);
        },
        openInChild: `new (await import('@keyv/redis')).default(${JSON.stringify(url)}, { throwOnErrors: true })`,
        close,
      };
    }
    case 'postgres': {
      const uri = inject('postgresUrl');
      const raw = new pg.Pool({ connectionString: uri, max: 2 });
      closers.push(() => raw.end());
      return {
        open() {
          const store = new KeyvPostgres({ uri });
          return store;
        },
        async dump(fragment) {
          const { rows } = await raw.query<{ key: string; value: string }>(
            'SELECT key, value FROM keyv WHERE strpos(key, $1) > 0 ORDER BY key',
            [fragment],
          );
          return rows;
        },
        async put(key, value) {
          await raw.query('INSERT INTO keyv (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [
            key,
            value,
          ]);
        },
        openInChild: `new (await import('@keyv/postgres')).default({ uri: ${JSON.stringify(uri)} })`,
        close,
      };
    }
    case 'sqlite': {
      const dir = await mkdtemp(join(tmpdir(), 'toolhost-stores-sqlite-'));
      const path = join(dir, 'toolhost.sqlite');
      closers.push(() => rm(dir, { recursive: true, force: true }));
      const withRaw = <T>(read: (db: InstanceType<typeof sqliteWasm.Database>) => T): T => {
        const db = new sqliteWasm.Database(path);
        try {
          return read(db);
        } finally {
          db.close();
        }
      };
      return {
        open() {
          const store = new KeyvSqliteWasm({ path });
          closers.push(() => store.disconnect());
          return store;
        },
        async dump(fragment) {
          return withRaw(
            (db) =>
              db.all('SELECT key, value FROM keyv WHERE instr(key, ?) > 0 ORDER BY key', [fragment]) as Array<{
                key: string;
                value: string;
              }>,
          );
        },
        async put(key, value) {
          withRaw((db) =>
            db.run('INSERT INTO keyv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]),
          );
        },
        openInChild: `new (await import('@toolhost/stores/sqlite')).KeyvSqliteWasm({ path: ${JSON.stringify(path)} })`,
        close,
      };
    }
  }
}
