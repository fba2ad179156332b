import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { InlineDataPart } from '@toolhost/contract';
import { ResultBudgetError } from '../result-budget-error.js';
import {
  createResultId,
  isResultId,
  resolveStoreLimits,
  storedResultSize,
  tooLargeError,
  type ResolvedStoreLimits,
  type ResultStore,
  type ResultStoreLimits,
  type StoredResult,
  type StoredResultInput,
} from '../result-store.js';

/** Options of {@link FileResultStore}. */
export interface FileResultStoreOptions extends ResultStoreLimits {
  /** The folder the results are kept in (one file each). @default join(homedir(), appDir, 'tool-results') */
  readonly directory?: string | undefined;
  /** The application's folder under the home directory. @default '.toolhost' */
  readonly appDir?: string | undefined;
}

/** The name of an entry's file: the id and `.json`; nothing else in the folder is read as an entry. */
const ENTRY_FILE = /^(res_[A-Za-z0-9_-]{32})\.json$/;
/** Temporary files of writes in progress (left behind by a process that died mid-write). */
const TEMPORARY_FILE = /^\.res_[A-Za-z0-9_-]{32}\.[0-9a-f]{12}\.tmp$/;
/** Version of the entry files' format. */
const FORMAT_VERSION = 1;

interface EntryFile {
  readonly name: string;
  readonly path: string;
  readonly size: number;
  readonly modified: number;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMediaPart(value: unknown): value is InlineDataPart {
  return isRecord(value) && value['type'] === 'inlineData' && typeof value['mimeType'] === 'string' && typeof value['data'] === 'string';
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A {@link ResultStore} in one folder, one file per result, for a host whose process may restart
 * while a conversation still pages through a result, or several processes of one user. The folder
 * is created with mode 0700 and each file with mode 0600 (results may hold private data), written
 * atomically (a temporary file, then a rename). Bounded like `MemoryResultStore` (per entry, in
 * total on disk, in entries, by age): every `put` first removes expired files, then the oldest
 * until the new one fits. Only files named `<id>.json`, with an id of the form the store makes,
 * are ever read; any other id (`../x`, an absolute path, a NUL) is refused before a path is built,
 * and a symbolic link is never followed. Node only (`@toolhost/result-budget/node`).
 *
 * @example
 * ```ts
 * import { FileResultStore } from '@toolhost/result-budget/node';
 *
 * const store = new FileResultStore({ directory: '/var/lib/my-agent/tool-results', ttlMs: 24 * 60 * 60_000 });
 * ```
 */
export class FileResultStore implements ResultStore {
  /** The folder the results are kept in. */
  readonly directory: string;
  readonly #limits: ResolvedStoreLimits;

  /** Create a store; nothing is read or written until the first call. */
  constructor(options: FileResultStoreOptions = {}) {
    this.directory = options.directory ?? join(homedir(), options.appDir ?? '.toolhost', 'tool-results');
    this.#limits = resolveStoreLimits('FileResultStore', options);
  }

  /** {@inheritDoc ResultStore.put} */
  async put(result: StoredResultInput): Promise<string> {
    const size = storedResultSize(result);
    if (size > this.#limits.maxEntryBytes) throw tooLargeError('FileResultStore', size, this.#limits.maxEntryBytes);
    await this.#ensureDirectory();
    const now = this.#limits.now();
    const id = createResultId();
    const record = {
      v: FORMAT_VERSION,
      id,
      createdAt: now,
      expiresAt: now + this.#limits.ttlMs,
      size,
      ...(result.serverName !== undefined ? { serverName: result.serverName } : {}),
      ...(result.toolName !== undefined ? { toolName: result.toolName } : {}),
      text: result.text,
      media: (result.media ?? []).map((part) => ({
        type: 'inlineData',
        mimeType: part.mimeType,
        data: part.data,
        ...(part.source !== undefined ? { source: part.source } : {}),
        ...(part.uri !== undefined ? { uri: part.uri } : {}),
      })),
    };
    const content = JSON.stringify(record);
    await this.#makeRoom(Buffer.byteLength(content), now);
    const temporary = join(this.directory, `.${id}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temporary, content, { mode: 0o600, flag: 'wx' });
      await chmod(temporary, 0o600);
      await rename(temporary, this.#path(id));
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw this.#failure(`write a result into ${this.directory}`, error);
    }
    return id;
  }

  /** {@inheritDoc ResultStore.get} */
  async get(id: string): Promise<StoredResult | undefined> {
    if (!isResultId(id)) return undefined;
    const path = this.#path(id);
    let content: string;
    try {
      // O_NOFOLLOW: a symbolic link planted under an entry's name is not followed (ELOOP).
      const handle = await open(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
      try {
        const info = await handle.stat();
        if (!info.isFile()) return undefined;
        // JSON escaping can at most about double an entry; anything larger was not written here.
        if (info.size > this.#limits.maxEntryBytes * 2 + 65_536) {
          throw new ResultBudgetError({
            code: 'STORE_FAILED',
            message: `The stored result file ${path} is ${info.size} bytes, larger than this store ever writes; it was not read. Delete it.`,
            resultId: id,
          });
        }
        content = await handle.readFile('utf8');
      } finally {
        await handle.close();
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return undefined;
      if (ResultBudgetError.isInstance(error)) throw error;
      throw this.#failure(`read the stored result ${path}`, error);
    }
    const entry = this.#parse(content, id);
    if (entry === undefined) {
      throw new ResultBudgetError({
        code: 'STORE_FAILED',
        message: `The stored result file ${path} is not a result this store wrote (damaged or changed by hand); delete it.`,
        resultId: id,
      });
    }
    if (entry.expiresAt <= this.#limits.now()) {
      await rm(path, { force: true }).catch(() => undefined);
      return undefined;
    }
    return entry;
  }

  /** {@inheritDoc ResultStore.delete} */
  async delete(id: string): Promise<boolean> {
    if (!isResultId(id)) return false;
    try {
      await rm(this.#path(id));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw this.#failure(`delete the stored result ${this.#path(id)}`, error);
    }
  }

  #path(id: string): string {
    return join(this.directory, `${id}.json`);
  }

  #parse(content: string, id: string): StoredResult | undefined {
    let record: unknown;
    try {
      record = JSON.parse(content);
    } catch {
      return undefined;
    }
    if (
      !isRecord(record) ||
      record['v'] !== FORMAT_VERSION ||
      record['id'] !== id ||
      typeof record['text'] !== 'string' ||
      typeof record['createdAt'] !== 'number' ||
      typeof record['expiresAt'] !== 'number' ||
      typeof record['size'] !== 'number' ||
      !Array.isArray(record['media']) ||
      !record['media'].every(isMediaPart)
    ) {
      return undefined;
    }
    return {
      id,
      text: record['text'],
      media: record['media'] as InlineDataPart[],
      ...(typeof record['serverName'] === 'string' ? { serverName: record['serverName'] } : {}),
      ...(typeof record['toolName'] === 'string' ? { toolName: record['toolName'] } : {}),
      createdAt: record['createdAt'],
      expiresAt: record['expiresAt'],
      size: record['size'],
    };
  }

  async #ensureDirectory(): Promise<void> {
    try {
      await mkdir(this.directory, { recursive: true, mode: 0o700 });
      const info = await lstat(this.directory);
      if (!info.isDirectory()) {
        throw new ResultBudgetError({
          code: 'STORE_FAILED',
          message: `The result folder ${this.directory} is not a folder (a file or a symbolic link); results are not written there. Point FileResultStore at a folder of its own.`,
        });
      }
    } catch (error) {
      if (ResultBudgetError.isInstance(error)) throw error;
      throw this.#failure(`create the result folder ${this.directory}`, error);
    }
  }

  /** Remove expired entries and stale temporary files, then the oldest entries until `incoming` more bytes fit. */
  async #makeRoom(incoming: number, now: number): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      throw this.#failure(`list the result folder ${this.directory}`, error);
    }
    const entries: EntryFile[] = [];
    for (const name of names) {
      const isEntry = ENTRY_FILE.test(name);
      if (!isEntry && !TEMPORARY_FILE.test(name)) continue;
      const path = join(this.directory, name);
      const info = await stat(path).catch(() => undefined);
      if (info === undefined || !info.isFile()) continue;
      const modified = info.mtimeMs;
      if (modified + this.#limits.ttlMs <= now) {
        await rm(path, { force: true }).catch(() => undefined);
        continue;
      }
      if (isEntry) entries.push({ name, path, size: info.size, modified });
    }
    entries.sort((a, b) => a.modified - b.modified || (a.name < b.name ? -1 : 1));
    let total = entries.reduce((sum, entry) => sum + entry.size, 0);
    let count = entries.length;
    for (const entry of entries) {
      if (total + incoming <= this.#limits.maxTotalBytes && count + 1 <= this.#limits.maxEntries) break;
      await rm(entry.path, { force: true }).catch(() => undefined);
      total -= entry.size;
      count--;
    }
  }

  #failure(action: string, error: unknown): ResultBudgetError {
    return new ResultBudgetError({
      code: 'STORE_FAILED',
      message: `FileResultStore could not ${action}: ${message(error)}. Check that the folder exists and is writable by you.`,
      cause: error,
    });
  }
}
