// The one Keyv of the process, on the backend of `--store`: every user's stores go through it
// (createKeyvStores), and so do the example's own records of calls waiting for a decision.
import KeyvPostgres from '@keyv/postgres';
import KeyvRedis from '@keyv/redis';
import { Keyv } from 'keyv';
import { KeyvSqliteWasm } from '@toolhost/stores/sqlite';
import type { StoreSpec } from './config.js';

/** The process's Keyv and how to close it. */
export interface Backend {
  /** Created with `throwOnErrors: true`: a failing backend is an error, never an empty read. */
  readonly keyv: Keyv;
  /** What it is, for the banner (no password). */
  readonly description: string;
  /** Close the connection (or the SQLite file). */
  close(): Promise<void>;
}

/** Open the backend of `spec` (SQLite: creates the file, mode 0600). */
export function openBackend(spec: StoreSpec): Backend {
  switch (spec.kind) {
    case 'sqlite': {
      const store = new KeyvSqliteWasm({ path: spec.path });
      return {
        keyv: new Keyv({ store, throwOnErrors: true }),
        description: `SQLite file ${spec.path}`,
        close: () => store.disconnect(),
      };
    }
    case 'redis': {
      const store = new KeyvRedis(spec.url, { throwOnErrors: true });
      return {
        keyv: new Keyv({ store, throwOnErrors: true }),
        description: `Redis ${withoutPassword(spec.url)}`,
        close: () => store.disconnect(),
      };
    }
    case 'postgres': {
      const store = new KeyvPostgres({ uri: spec.url });
      return {
        keyv: new Keyv({ store, throwOnErrors: true }),
        description: `PostgreSQL ${withoutPassword(spec.url)}`,
        close: () => store.disconnect(),
      };
    }
  }
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}
