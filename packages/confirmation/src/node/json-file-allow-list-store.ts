import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { AllowList } from '../allow-list.js';
import { emptyAllowList, fromAllowListDocument, toAllowListDocument } from '../allow-list.js';
import type { AllowListStore } from '../allow-list-store.js';
import { ConfirmationError } from '../confirmation-error.js';
import { withFileLock } from '@toolhost/config/files';

/** How long a change waits for another process's lock on the file (10 seconds). */
const LOCK_TIMEOUT_MS = 10_000;

/** Options of {@link JsonFileAllowListStore}. */
export interface JsonFileAllowListStoreOptions {
  /** The file to use. @default join(homedir(), appDir, 'mcp-allowlist.json') */
  filePath?: string;
  /** The application's folder under the home directory (`.toolhost`, `.gemini`...). @default '.toolhost' */
  appDir?: string;
}

/**
 * An {@link AllowListStore} in a JSON file, by default `~/.toolhost/mcp-allowlist.json`.
 * Writes are atomic (a temporary file in the same folder, then rename) and the file is
 * created with mode 0600 in a folder created with mode 0700. A missing file is an empty
 * allow-list; a file that is not an allow-list is an error (`STORE_FAILED`) naming the file.
 *
 * Several processes may share the file (several instances of one app on a machine):
 * {@link JsonFileAllowListStore.update} reads, changes and writes it under the lock
 * `<file>.lock` (a folder shared by every process; one whose holder crashed is taken over after
 * 5 seconds), so approvals given through different processes are merged, never overwritten.
 */
export class JsonFileAllowListStore implements AllowListStore {
  /** The file this store reads and writes. */
  readonly filePath: string;

  /** Create a store; nothing is read or written until `read`/`write`. */
  constructor(options: JsonFileAllowListStoreOptions = {}) {
    this.filePath = options.filePath ?? join(homedir(), options.appDir ?? '.toolhost', 'mcp-allowlist.json');
  }

  /** Read the file (empty allow-list when it does not exist). */
  async read(): Promise<AllowList> {
    let text: string;
    try {
      text = await readFile(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyAllowList();
      throw this.#failure('read', error);
    }
    try {
      return fromAllowListDocument(JSON.parse(text));
    } catch (error) {
      throw new ConfirmationError({
        code: 'STORE_FAILED',
        message: `The MCP allow-list file ${this.filePath} is not a valid allow-list (${error instanceof Error ? error.message : String(error)}). Fix it or delete it to start with an empty allow-list.`,
        filePath: this.filePath,
        cause: error,
      });
    }
  }

  /** Replace the file atomically, mode 0600 (under the file's lock, so no concurrent `update` is lost half-way). */
  write(allowList: AllowList): Promise<void> {
    return this.#locked(() => this.#write(allowList));
  }

  /**
   * {@inheritDoc AllowListStore.update}
   *
   * Here under the lock `<file>.lock`: the file is read, `change` applied, and the result written
   * atomically when it differs (a change that changes nothing takes no lock). A file that is not an allow-list is left untouched (`STORE_FAILED`).
   */
  async update(change: (current: AllowList) => AllowList): Promise<AllowList> {
    // A first look without the lock: a change that changes nothing takes no lock and makes no folder.
    const before = await this.read();
    if (change(before) === before) return before;
    return this.#locked(async () => {
      const current = await this.read();
      const next = change(current);
      if (next !== current) await this.#write(next);
      return next;
    });
  }

  #locked<T>(work: () => Promise<T>): Promise<T> {
    const lockPath = `${this.filePath}.lock`;
    return withFileLock(lockPath, LOCK_TIMEOUT_MS, work, ({ reason, detail, cause }) => {
      return new ConfirmationError({
        code: 'STORE_FAILED',
        message:
          reason === 'timeout'
            ? `The MCP allow-list file ${this.filePath} is locked by another process (lock ${lockPath}), ${detail}. Try again when that process has finished; the file was not changed.`
            : `The MCP allow-list file ${this.filePath} cannot be locked for writing (${detail}, lock ${lockPath}). Check that its folder is writable by you; the file was not changed.`,
        filePath: this.filePath,
        cause,
      });
    });
  }

  async #write(allowList: AllowList): Promise<void> {
    const temporary = `${this.filePath}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(this.filePath), { recursive: true, mode: 0o700 });
      await writeFile(temporary, `${JSON.stringify(toAllowListDocument(allowList), null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      await chmod(temporary, 0o600);
      await rename(temporary, this.filePath);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw this.#failure('write', error);
    }
  }

  #failure(action: 'read' | 'write', error: unknown): ConfirmationError {
    return new ConfirmationError({
      code: 'STORE_FAILED',
      message: `Could not ${action} the MCP allow-list file ${this.filePath}: ${error instanceof Error ? error.message : String(error)}. Check that the folder exists and is writable by you.`,
      filePath: this.filePath,
      cause: error,
    });
  }
}
