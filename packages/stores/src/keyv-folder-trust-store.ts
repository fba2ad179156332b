import {
  changeRecordedFolderTrust,
  findRecordedFolderTrust,
  parsePinnedServers,
  realFolderPath,
  type FolderTrustChange,
  type FolderTrustDecision,
  type FolderTrustRecords,
  type FolderTrustStore,
  type FolderTrustWriteOptions,
  type PinnedServer,
} from '@toolhost/config/trust';
import { isAbsolute } from 'node:path';
import { StoresError } from './stores-error.js';
import type { UserStoreContext } from './user-store-context.js';
import { userDocumentKey, userLockId } from './user-keys.js';

export type { FolderTrustChange, FolderTrustDecision } from '@toolhost/config/trust';

/** A user's trusted-folders records as stored. */
interface TrustDocument {
  readonly format: 'toolhost-trusted-folders';
  readonly v: 1;
  /** Absolute folder → trusted (`false`: explicitly not trusted, inside a trusted folder). */
  readonly folders: Record<string, boolean>;
  /**
   * Project folder → server name → what was pinned when it was trusted (`{ digest, launch }`, as
   * `pinnedServers` of `trusted-folders.json`). Absent in documents written before pinning: their
   * trusted folders have no pins, so their project servers are blocked until trusted again.
   */
  readonly pins?: Record<string, Record<string, PinnedServer>>;
}

const WHAT = 'trusted folders';

/**
 * Folder trust for one user on a Keyv backend: a `FolderTrustStore` of `@toolhost/config`, so
 * `McpToolHost.create({ stores: { trust } })` reads the user's folder trust and pinned project
 * servers from it instead of the trusted-folders files. The rules are those of toolhost's own
 * `trusted-folders.json` (the same code applies them): a trusted folder trusts its subfolders
 * unless a subfolder is recorded as not trusted (the nearest record wins), paths are compared
 * after resolving symbolic links, untrusting a folder that a trusted ancestor covers records it
 * as not trusted, and a trusted folder's project servers start only as pinned when it was
 * trusted (`setStoredFolderTrust` of `@toolhost/config` pins them): one changed or added since is
 * blocked with `CHANGED_SINCE_TRUSTED`. Each change holds the user's lock across instances.
 *
 * @example
 * ```ts
 * import { setStoredFolderTrust } from '@toolhost/config/trust';
 *
 * await setStoredFolderTrust(stores.trust, { folder: projectDir, trusted: true }); // after the user said yes
 * const host = await McpToolHost.create({ projectDir, stores });
 * ```
 */
export class KeyvFolderTrustStore implements FolderTrustStore {
  readonly #context: UserStoreContext;
  readonly #key: string;

  /** @internal Created by `createKeyvStores`. */
  constructor(context: UserStoreContext) {
    this.#context = context;
    this.#key = userDocumentKey(context.user, 'trusted-folders');
  }

  /** The user whose decisions these are. */
  get user(): string {
    return this.#context.user;
  }

  /**
   * Whether the user trusts `folder` (relative paths start at the current folder), and the project
   * servers pinned for it. Rejects with a `StoresError` when the backend fails or holds something
   * else under the key (then nothing starts).
   */
  async getFolderTrust(folder: string): Promise<FolderTrustDecision> {
    const path = await realFolderPath(folder);
    return findRecordedFolderTrust(await this.#readRecords(), path);
  }

  /**
   * Trusts (`true`) or untrusts (`false`) `folder` for the user. Trusting records the folder as
   * trusted with `options.pinnedServers` (trusting a trusted folder only renews them; omitted: the
   * pins are left as they are); untrusting removes its own record and, when a trusted ancestor
   * would still cover it, records it as not trusted, so it is untrusted afterwards in every case,
   * and drops the pins of the folders no longer trusted. Records of subfolders are left as they are.
   */
  async setFolderTrust(folder: string, trusted: boolean, options?: FolderTrustWriteOptions): Promise<FolderTrustChange> {
    const path = await realFolderPath(folder);
    return this.#context.access.withLock(
      userLockId(this.user, 'write', 'trusted-folders'),
      async () => {
        const { records, change } = changeRecordedFolderTrust(await this.#readRecords(), path, trusted, options);
        if (!change.changed && !change.pinsChanged) return change;
        const document: TrustDocument = {
          format: 'toolhost-trusted-folders',
          v: 1,
          folders: Object.fromEntries(records.folders),
          pins: Object.fromEntries([...records.pins].map(([key, servers]) => [key, Object.fromEntries(servers)])),
        };
        await this.#context.access.write(this.#key, document, WHAT);
        return change;
      },
      this.#context.timing,
    );
  }

  /** Every recorded folder of the user and whether it is trusted. */
  async list(): Promise<ReadonlyMap<string, boolean>> {
    return (await this.#readRecords()).folders;
  }

  async #readRecords(): Promise<FolderTrustRecords> {
    const stored = await this.#context.access.read(this.#key, WHAT);
    if (stored === undefined) return { folders: new Map(), pins: new Map() };
    const document = stored as Partial<TrustDocument> | null;
    if (document?.format !== 'toolhost-trusted-folders' || typeof document.folders !== 'object' || document.folders === null) {
      throw new StoresError({
        code: 'STORE_FAILED',
        user: this.user,
        message: `The stored trusted folders of user "${this.user}" are not a trusted-folders document of @toolhost/stores; no folder is trusted. Delete the key ${this.#key} to start over.`,
      });
    }
    const folders = new Map<string, boolean>();
    for (const [folder, trusted] of Object.entries(document.folders)) {
      if (isAbsolute(folder) && typeof trusted === 'boolean') folders.set(folder, trusted);
    }
    // Malformed pins are left out, so their servers stay blocked.
    return { folders, pins: parsePinnedServers(document.pins) ?? new Map() };
  }
}
