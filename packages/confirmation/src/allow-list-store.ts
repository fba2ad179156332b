import type { AllowList } from './allow-list.js';
import { emptyAllowList } from './allow-list.js';

/**
 * Where "always allow" decisions are kept between runs. Implement it to keep them in a
 * database, a keychain or a settings service. `ConfirmationPolicy` reads the list once and keeps
 * it, reads it again before it would ask the user (another process may have approved the call
 * meanwhile), and records each change with `update` when the store has it, else by writing the
 * whole list (writes of one policy are serialised).
 *
 * A store that several processes share (several instances of one app, a database or Redis
 * store) should implement `update`: without it, two processes that change the list at the same
 * time each write their own copy, and one of the changes is lost.
 */
export interface AllowListStore {
  /** The stored allow-list (an empty one when nothing was stored yet), as stored now (not a cached copy). */
  read(): Promise<AllowList>;
  /** Replace the stored allow-list. */
  write(allowList: AllowList): Promise<void>;
  /**
   * Atomically read the stored list, apply `change` and store the result, exclusive across every
   * process sharing the store (a lock, or a transaction retried on conflict: `change` is pure and
   * may be called more than once); returns the list as stored afterwards. When `change` returns
   * its argument itself, nothing needs to be written. Optional: without it, changes are written
   * with `write`.
   */
  update?(change: (current: AllowList) => AllowList): Promise<AllowList>;
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

  /** Apply `change` to the current allow-list and keep the result (atomic: nothing else runs in between). */
  async update(change: (current: AllowList) => AllowList): Promise<AllowList> {
    this.#allowList = change(this.#allowList);
    return this.#allowList;
  }
}
