import type { AllowList } from './allow-list.js';
import { emptyAllowList } from './allow-list.js';

/**
 * Where "always allow" decisions are kept between runs. Implement it to keep them in a
 * database, a keychain or a settings service; `ConfirmationPolicy` reads once, then writes
 * the whole list after every change (writes are serialised).
 */
export interface AllowListStore {
  /** The stored allow-list (an empty one when nothing was stored yet). */
  read(): Promise<AllowList>;
  /** Replace the stored allow-list. */
  write(allowList: AllowList): Promise<void>;
}

/** An {@link AllowListStore} in memory: approvals last as long as the process (the default). */
export class InMemoryAllowListStore implements AllowListStore {
  #allowList: AllowList;

  /** Start with `initial`, or empty. */
  constructor(initial: AllowList = emptyAllowList()) {
    this.#allowList = initial;
  }

  /** The current allow-list. */
  async read(): Promise<AllowList> {
    return this.#allowList;
  }

  /** Replace the allow-list. */
  async write(allowList: AllowList): Promise<void> {
    this.#allowList = allowList;
  }
}
