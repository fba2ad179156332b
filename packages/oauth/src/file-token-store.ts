import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { OAuthError } from './oauth-error.js';
import { findCredentials, upsertCredentials, type StoredOAuthCredentials, type TokenStore } from './token-store.js';

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /** Full path of the file; wins over `appDir`. */
  filePath?: string;
  /** Directory under the home directory. @default '.toolhost' */
  appDir?: string;
  /** Home directory. @default os.homedir() */
  homeDir?: string;
}

interface FileContents {
  version: 1;
  entries: StoredOAuthCredentials[];
}

/**
 * A {@link TokenStore} in one JSON file, `~/<appDir>/mcp-oauth-tokens.json` by default.
 * The file is written with mode 0600 (its directory 0700) through a temporary file and a
 * rename, so a crash never leaves a half-written file; writes within a process are serialised.
 * The file is removed when its last entry is deleted.
 *
 * A file that is JSON but not in this store's format (`{ "version": 1, "entries": [...] }`), such
 * as the token file Gemini CLI or Qwen Code keep at the same place in `~/.gemini` or `~/.qwen`,
 * is never changed or removed: it holds no tokens for this store, `delete` does nothing, and
 * `set` fails with `STORE_FAILED` naming the file.
 */
export class FileTokenStore implements TokenStore {
  /** Path of the token file. */
  readonly filePath: string;
  #queue: Promise<unknown> = Promise.resolve();

  /** Creates a store; nothing is read or written until the first call. */
  constructor(options: FileTokenStoreOptions = {}) {
    this.filePath = options.filePath ?? join(options.homeDir ?? homedir(), options.appDir ?? '.toolhost', 'mcp-oauth-tokens.json');
  }

  /** {@inheritDoc TokenStore.get} */
  async get(serverName: string, issuer?: string): Promise<StoredOAuthCredentials | undefined> {
    return findCredentials((await this.#read()).entries, serverName, issuer);
  }

  /** {@inheritDoc TokenStore.set} */
  set(credentials: StoredOAuthCredentials): Promise<void> {
    return this.#update((entries) => upsertCredentials(entries, credentials));
  }

  /** {@inheritDoc TokenStore.delete} */
  delete(serverName: string, issuer?: string): Promise<void> {
    return this.#update((entries) =>
      entries.filter((e) => !(e.serverName === serverName && (issuer === undefined || e.issuer === issuer))),
    );
  }

  /** {@inheritDoc TokenStore.list} */
  async list(): Promise<StoredOAuthCredentials[]> {
    return (await this.#read()).entries;
  }

  /** The entries, and whether the file is in this store's format (a missing file is). */
  async #read(): Promise<{ entries: StoredOAuthCredentials[]; foreign: boolean }> {
    let text: string;
    try {
      text = await readFile(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], foreign: false };
      throw new OAuthError({
        code: 'STORE_FAILED',
        message: `Could not read the OAuth token file ${this.filePath}: ${(error as Error).message}`,
        cause: error,
      });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new OAuthError({
        code: 'STORE_FAILED',
        message: `The OAuth token file ${this.filePath} is not valid JSON; delete it and authenticate again.`,
        cause: error,
      });
    }
    const contents =
      typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Partial<FileContents>) : undefined;
    if (contents !== undefined && Array.isArray(contents.entries)) return { entries: contents.entries, foreign: false };
    const empty = contents !== undefined && Object.keys(contents).length === 0;
    return { entries: [], foreign: !empty };
  }

  #update(change: (entries: StoredOAuthCredentials[]) => StoredOAuthCredentials[]): Promise<void> {
    const run = this.#queue.then(async () => {
      const current = await this.#read();
      const entries = change(current.entries);
      if (current.foreign) {
        // Another program's file (Gemini CLI's or Qwen Code's token file): never changed or removed.
        if (entries.length === 0) return;
        throw new OAuthError({
          code: 'STORE_FAILED',
          message: `The OAuth token file ${this.filePath} is not in toolhost's format (it may be the token file of Gemini CLI or Qwen Code), so toolhost does not change it and the token was not stored. Give toolhost a token file of its own (FileTokenStore's filePath, or McpToolHost's stores.tokens), or move that file away.`,
        });
      }
      if (entries.length === 0) {
        await rm(this.filePath, { force: true });
        return;
      }
      await this.#writeAtomically(JSON.stringify({ version: 1, entries } satisfies FileContents, null, 2));
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #writeAtomically(text: string): Promise<void> {
    const temporary = `${this.filePath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(this.filePath), { recursive: true, mode: 0o700 });
      await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
      await chmod(temporary, 0o600);
      await rename(temporary, this.filePath);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw new OAuthError({
        code: 'STORE_FAILED',
        message: `Could not write the OAuth token file ${this.filePath}: ${(error as Error).message}`,
        cause: error,
      });
    }
  }
}
