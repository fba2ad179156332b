import type { DocumentAccess } from './keyv-backend.js';

/** What each store of one user is built from. @internal */
export interface UserStoreContext {
  /** Checked reads and writes on the backend, for this user. */
  readonly access: DocumentAccess;
  /** The user. */
  readonly user: string;
  /** Lock wait and lease. */
  readonly timing: { readonly waitMs: number; readonly ttlMs: number };
}
