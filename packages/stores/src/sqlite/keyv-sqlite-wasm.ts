import { EventEmitter } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import type { KeyvStoreAdapter } from 'keyv';
import sqliteWasm from 'node-sqlite3-wasm';
import { leaseLocks, type StoreLocks } from '../locks.js';
import { StoresError } from '../stores-error.js';

/** Options of {@link KeyvSqliteWasm}. */
export interface KeyvSqliteWasmOptions {
  /** The database file (created with mode 0600 when missing). */
  readonly path: string;
  /** The table of the values (letters, digits, `_`). @default 'keyv' */
  readonly table?: string;
  /** How long one statement retries while another process has the file locked. @default 5000 */
  readonly busyTimeoutMs?: number;
}

type Row = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * A Keyv store adapter on an SQLite file, through `node-sqlite3-wasm` (SQLite compiled to
 * WebAssembly, reading and writing a real file: no native addon, no prebuilt binary to
 * download). Values are kept in a `key TEXT PRIMARY KEY, value TEXT` table; Keyv handles expiry.
 * It carries its own {@link StoreLocks} (a lease table), which `createKeyvStores` uses.
 *
 * Meant for one server process (the default of a single-machine deployment): several processes
 * may share the file (node-sqlite3-wasm locks it with a `<file>.lock` folder; a busy file is
 * retried for `busyTimeoutMs`), but a process killed while it holds that folder leaves it behind.
 * Use Redis or PostgreSQL for several machines. Calls are synchronous under the hood; close it
 * with `disconnect()`.
 *
 * @example
 * ```ts
 * import { createKeyvStores } from '@toolhost/stores';
 * import { KeyvSqliteWasm } from '@toolhost/stores/sqlite';
 *
 * const store = new KeyvSqliteWasm({ path: '/var/lib/my-agent/toolhost.sqlite' }); // once per process
 * const stores = createKeyvStores({ store, user: 'alice', encryption: { keys: { k1: process.env['TOOLHOST_TOKEN_KEY'] ?? '' }, current: 'k1' } });
 * ```
 */
export class KeyvSqliteWasm extends EventEmitter implements KeyvStoreAdapter {
  /** What Keyv reads of the adapter (`dialect` makes it iterable). */
  readonly opts: { readonly dialect: 'sqlite'; readonly url: string; readonly path: string; readonly table: string };
  /** The Keyv namespace, set by Keyv. */
  namespace?: string | undefined;
  /** Locks shared by every process using this file (a lease table), for `createKeyvStores`. */
  readonly locks: StoreLocks;
  readonly #db: InstanceType<typeof sqliteWasm.Database>;
  readonly #table: string;
  readonly #busyTimeoutMs: number;

  /** Open (or create) the file and its tables. @throws StoresError `INVALID_OPTIONS` for a bad table name, `STORE_FAILED` when the file cannot be opened */
  constructor(options: KeyvSqliteWasmOptions) {
    super();
    const table = options.table ?? 'keyv';
    if (!IDENTIFIER.test(table)) {
      throw new StoresError({
        code: 'INVALID_OPTIONS',
        message: `KeyvSqliteWasm: the table name "${table}" must be letters, digits and "_" (not starting with a digit).`,
      });
    }
    this.#table = `"${table}"`;
    this.#busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
    this.opts = { dialect: 'sqlite', url: `sqlite://${options.path}`, path: options.path, table };
    try {
      closeSync(openSync(options.path, 'a', 0o600));
      this.#db = new sqliteWasm.Database(options.path);
      this.#db.exec(
        `CREATE TABLE IF NOT EXISTS ${this.#table} (key TEXT PRIMARY KEY, value TEXT NOT NULL);` +
          'CREATE TABLE IF NOT EXISTS toolhost_locks (name TEXT PRIMARY KEY, token TEXT NOT NULL, expires_at INTEGER NOT NULL);',
      );
    } catch (error) {
      throw new StoresError({
        code: 'STORE_FAILED',
        cause: error,
        message: `Could not open the SQLite store ${options.path}: ${error instanceof Error ? error.message : String(error)}. Check that its folder exists and is writable.`,
      });
    }
    const db = (): InstanceType<typeof sqliteWasm.Database> => this.#db;
    this.locks = leaseLocks({
      where: `SQLite lock in ${options.path}`,
      tryAcquire: (name, token, ttlMs) =>
        this.#retry(() => {
          const now = Date.now();
          const result = db().run(
            'INSERT INTO toolhost_locks (name, token, expires_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at WHERE toolhost_locks.expires_at <= ?',
            [name, token, now + ttlMs, now],
          );
          return result.changes === 1;
        }),
      renew: (name, token, ttlMs) =>
        this.#retry(
          () =>
            db().run('UPDATE toolhost_locks SET expires_at = ? WHERE name = ? AND token = ?', [Date.now() + ttlMs, name, token]).changes ===
            1,
        ),
      release: (name, token) =>
        this.#retry(() => {
          db().run('DELETE FROM toolhost_locks WHERE name = ? AND token = ?', [name, token]);
        }),
    });
  }

  /** The stored (serialized) value of `key`. */
  async get<Value>(key: string): Promise<Value | undefined> {
    const row = await this.#retry(() => this.#db.get(`SELECT value FROM ${this.#table} WHERE key = ?`, [key]) as Row | null);
    return (row?.['value'] ?? undefined) as Value | undefined;
  }

  /** The stored values of `keys`, in order. */
  async getMany<Value>(keys: string[]): Promise<Array<Value | undefined>> {
    return Promise.all(keys.map((key) => this.get<Value>(key)));
  }

  /** Stores `value` (Keyv's serialized text) under `key`. */
  async set(key: string, value: unknown): Promise<void> {
    await this.#retry(() => {
      this.#db.run(`INSERT INTO ${this.#table} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [
        key,
        String(value),
      ]);
    });
  }

  /** Deletes `key`; true when it existed. */
  async delete(key: string): Promise<boolean> {
    return this.#retry(() => this.#db.run(`DELETE FROM ${this.#table} WHERE key = ?`, [key]).changes > 0);
  }

  /** Deletes `keys`; true when any existed. */
  async deleteMany(keys: string[]): Promise<boolean> {
    const results = await Promise.all(keys.map((key) => this.delete(key)));
    return results.some(Boolean);
  }

  /** True when `key` is stored. */
  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  /** Deletes every key of the namespace (every key without one). */
  async clear(): Promise<void> {
    await this.#retry(() => {
      if (this.namespace) this.#db.run(`DELETE FROM ${this.#table} WHERE key LIKE ? ESCAPE '\\'`, [`${escapeLike(this.namespace)}:%`]);
      else this.#db.run(`DELETE FROM ${this.#table}`);
    });
  }

  /** Every `[key, value]` of `namespace` (every pair without one). */
  async *iterator<Value>(namespace?: string): AsyncGenerator<Array<string | Awaited<Value> | undefined>, void> {
    const rows = await this.#retry(
      () =>
        (namespace
          ? this.#db.all(`SELECT key, value FROM ${this.#table} WHERE key LIKE ? ESCAPE '\\' ORDER BY key`, [`${escapeLike(namespace)}:%`])
          : this.#db.all(`SELECT key, value FROM ${this.#table} ORDER BY key`)) as Row[],
    );
    for (const row of rows) yield [String(row['key']), row['value'] as Awaited<Value>];
  }

  /** Closes the database file. */
  async disconnect(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }

  /** Runs `statement`, retrying while another process has the file locked (`SQLITE_BUSY`). */
  async #retry<T>(statement: () => T): Promise<T> {
    const deadline = Date.now() + this.#busyTimeoutMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return statement();
      } catch (error) {
        const busy = error instanceof Error && /database is locked|SQLITE_BUSY/i.test(error.message);
        if (!busy || Date.now() >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(100, 5 * 2 ** attempt)));
      }
    }
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
