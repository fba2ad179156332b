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
} from './result-store.js';

/** Options of {@link MemoryResultStore}. */
export type MemoryResultStoreOptions = ResultStoreLimits;

/**
 * A {@link ResultStore} in this process's memory: for one process and one user (a CLI, a desktop
 * app, tests). Bounded per entry and in total (32 MiB and 128 MiB, 1,000 entries by default), each
 * entry kept for an hour by default; when full, the oldest entries go first. Expired entries are
 * dropped when met and on every `put`. Runs anywhere JavaScript runs.
 *
 * @example
 * ```ts
 * const store = new MemoryResultStore({ ttlMs: 30 * 60_000 });
 * const id = await store.put({ text: hugeText });
 * (await store.get(id))?.text.length;
 * ```
 */
export class MemoryResultStore implements ResultStore {
  readonly #limits: ResolvedStoreLimits;
  /** Entries in the order they were stored (a Map keeps insertion order): the first is the oldest. */
  readonly #entries = new Map<string, StoredResult>();
  #total = 0;

  /** Create an empty store; see {@link MemoryResultStoreOptions}. */
  constructor(options: MemoryResultStoreOptions = {}) {
    this.#limits = resolveStoreLimits('MemoryResultStore', options);
  }

  /** Bytes held now (see `storedResultSize`). */
  get size(): number {
    return this.#total;
  }

  /** Entries held now (expired ones not yet met included). */
  get count(): number {
    return this.#entries.size;
  }

  /** {@inheritDoc ResultStore.put} */
  async put(result: StoredResultInput): Promise<string> {
    const size = storedResultSize(result);
    if (size > this.#limits.maxEntryBytes) throw tooLargeError('MemoryResultStore', size, this.#limits.maxEntryBytes);
    const now = this.#limits.now();
    this.#sweep(now);
    while (
      this.#entries.size > 0 &&
      (this.#total + size > this.#limits.maxTotalBytes || this.#entries.size + 1 > this.#limits.maxEntries)
    ) {
      this.#remove(this.#entries.keys().next().value as string);
    }
    let id = createResultId();
    while (this.#entries.has(id)) id = createResultId();
    this.#entries.set(id, {
      id,
      text: result.text,
      media: [...(result.media ?? [])],
      ...(result.serverName !== undefined ? { serverName: result.serverName } : {}),
      ...(result.toolName !== undefined ? { toolName: result.toolName } : {}),
      createdAt: now,
      expiresAt: now + this.#limits.ttlMs,
      size,
    });
    this.#total += size;
    return id;
  }

  /** {@inheritDoc ResultStore.get} */
  async get(id: string): Promise<StoredResult | undefined> {
    if (!isResultId(id)) return undefined;
    const entry = this.#entries.get(id);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#limits.now()) {
      this.#remove(id);
      return undefined;
    }
    return entry;
  }

  /** {@inheritDoc ResultStore.delete} */
  async delete(id: string): Promise<boolean> {
    if (!isResultId(id) || !this.#entries.has(id)) return false;
    this.#remove(id);
    return true;
  }

  /** Drop every expired entry (oldest first; stops at the first one still alive, as later ones expire later). */
  #sweep(now: number): void {
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt > now) break;
      this.#remove(id);
    }
  }

  #remove(id: string): void {
    const entry = this.#entries.get(id);
    if (entry === undefined) return;
    this.#entries.delete(id);
    this.#total -= entry.size;
  }
}
