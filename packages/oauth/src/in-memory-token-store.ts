import { findCredentials, upsertCredentials, type StoredOAuthCredentials, type TokenStore } from './token-store.js';

/** A {@link TokenStore} that keeps entries in memory only: the default, and handy in tests. */
export class InMemoryTokenStore implements TokenStore {
  #entries: StoredOAuthCredentials[] = [];
  /** The tail of each lock's queue: the promise the next holder waits for. */
  readonly #locks = new Map<string, Promise<void>>();

  /** {@inheritDoc TokenStore.get} */
  async get(serverName: string, issuer?: string): Promise<StoredOAuthCredentials | undefined> {
    const found = findCredentials(this.#entries, serverName, issuer);
    return found ? structuredClone(found) : undefined;
  }

  /** {@inheritDoc TokenStore.set} */
  async set(credentials: StoredOAuthCredentials): Promise<void> {
    this.#entries = upsertCredentials(this.#entries, structuredClone(credentials));
  }

  /** {@inheritDoc TokenStore.delete} */
  async delete(serverName: string, issuer?: string): Promise<void> {
    this.#entries = this.#entries.filter((e) => !(e.serverName === serverName && (issuer === undefined || e.issuer === issuer)));
  }

  /** {@inheritDoc TokenStore.list} */
  async list(): Promise<StoredOAuthCredentials[]> {
    return structuredClone(this.#entries);
  }

  /**
   * Runs `work` while holding the lock `name`, exclusive for everyone using this store (used around
   * refreshes). Here a mutex within the process, the only one that sees these entries.
   */
  async withLock<T>(name: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(name) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => held);
    this.#locks.set(name, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.#locks.get(name) === tail) this.#locks.delete(name);
    }
  }
}
