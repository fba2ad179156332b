import { emptyAllowList, fromAllowListDocument, toAllowListDocument, type AllowList, type AllowListStore } from '@toolhost/confirmation';
import { describeError, StoresError } from './stores-error.js';
import type { UserStoreContext } from './user-store-context.js';
import { userDocumentKey, userLockId } from './user-keys.js';

/** A user's approvals as stored: the allow-list document and a version counted up by every change. */
interface ApprovalsDocument {
  readonly format: 'toolhost-approvals';
  readonly v: 1;
  readonly version: number;
  readonly allowList: unknown;
}

const WHAT = 'approvals';

/**
 * An `AllowListStore` of `@toolhost/confirmation` for one user, on a Keyv backend: the user's
 * "always allow" decisions, read fresh on every `read()` (no cache) and changed under a lock
 * shared by every instance, so an approval given on one instance is honoured by every other
 * instance of the same user, never by another user's. Create it with `createKeyvStores`.
 */
export class KeyvAllowListStore implements AllowListStore {
  readonly #context: UserStoreContext;
  readonly #key: string;

  /** @internal Created by `createKeyvStores`. */
  constructor(context: UserStoreContext) {
    this.#context = context;
    this.#key = userDocumentKey(context.user, 'approvals');
  }

  /** The user whose approvals these are. */
  get user(): string {
    return this.#context.user;
  }

  /** The stored allow-list as it is now in the backend (empty when nothing was stored yet). */
  async read(): Promise<AllowList> {
    return (await this.#readDocument()).allowList;
  }

  /** Replaces the stored allow-list (prefer {@link update}: a replacement drops what another instance added meanwhile). */
  async write(allowList: AllowList): Promise<void> {
    await this.update(() => allowList);
  }

  /**
   * Applies `change` to the allow-list as stored now and stores the result, holding the user's
   * approvals lock (shared by every instance), so concurrent changes from several instances are
   * all kept (each `change` sees every change stored before it). Returns the stored result.
   */
  async update(change: (current: AllowList) => AllowList): Promise<AllowList> {
    return this.#context.access.withLock(
      userLockId(this.user, 'write', 'approvals'),
      async () => {
        const current = await this.#readDocument();
        const next = change(current.allowList);
        const document: ApprovalsDocument = {
          format: 'toolhost-approvals',
          v: 1,
          version: current.version + 1,
          allowList: toAllowListDocument(next),
        };
        await this.#context.access.write(this.#key, document, WHAT);
        return next;
      },
      this.#context.timing,
    );
  }

  async #readDocument(): Promise<{ allowList: AllowList; version: number }> {
    const stored = await this.#context.access.read(this.#key, WHAT);
    if (stored === undefined) return { allowList: emptyAllowList(), version: 0 };
    const document = stored as Partial<ApprovalsDocument> | null;
    if (document?.format !== 'toolhost-approvals' || typeof document.version !== 'number')
      throw this.#malformed('it is not an approvals document');
    try {
      return { allowList: fromAllowListDocument(document.allowList), version: document.version };
    } catch (error) {
      throw this.#malformed(describeError(error));
    }
  }

  #malformed(detail: string): StoresError {
    return new StoresError({
      code: 'STORE_FAILED',
      user: this.user,
      message: `The stored approvals of user "${this.user}" cannot be read (${detail}). Nothing was changed; delete the key ${this.#key} to start over (the user is then asked again).`,
    });
  }
}
