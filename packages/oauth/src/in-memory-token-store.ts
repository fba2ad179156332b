import { findCredentials, upsertCredentials, type StoredOAuthCredentials, type TokenStore } from './token-store.js';

/** A {@link TokenStore} that keeps entries in memory only: the default, and handy in tests. */
export class InMemoryTokenStore implements TokenStore {
  #entries: StoredOAuthCredentials[] = [];

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
}
