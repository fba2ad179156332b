import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { StoresError } from './stores-error.js';
import type { UserStoreContext } from './user-store-context.js';
import { userDocumentKey, userLockId } from './user-keys.js';

/** Whether a folder is trusted for a user, and which record decided. */
export interface FolderTrustDecision {
  /** The folder's real path (symbolic links resolved; its absolute path when it does not exist). */
  readonly folder: string;
  /** True when the folder, or the nearest recorded folder above it, is recorded as trusted. */
  readonly trusted: boolean;
  /** The recorded folder that decided (`folder` itself or an ancestor), `undefined` when none is recorded. */
  readonly decidedBy: string | undefined;
}

/** What {@link KeyvFolderTrustStore.setFolderTrust} did. */
export interface FolderTrustChange extends FolderTrustDecision {
  /** False when the folder already was in the requested state. */
  readonly changed: boolean;
}

/** A user's trusted-folders records as stored. */
interface TrustDocument {
  readonly format: 'toolhost-trusted-folders';
  readonly v: 1;
  /** Absolute folder → trusted (`false`: explicitly not trusted, inside a trusted folder). */
  readonly folders: Record<string, boolean>;
}

const WHAT = 'trusted folders';

/**
 * Folder trust for one user on a Keyv backend, with the rules of toolhost's own
 * `trusted-folders.json` (`@toolhost/config`): a trusted folder trusts its subfolders unless a
 * subfolder is recorded as not trusted (the nearest record wins), paths are compared after
 * resolving symbolic links, and untrusting a folder that a trusted ancestor covers records it as
 * not trusted. Project-server pinning (`pinnedServers`) is not kept here.
 *
 * The host does not read this store by itself yet: decide with it and pass the answer as the
 * host's `trustProject` option.
 *
 * @example
 * ```ts
 * const { trusted } = await stores.trust.getFolderTrust(projectDir);
 * const host = await McpToolHost.create({ projectDir, trustProject: trusted, stores });
 * ```
 */
export class KeyvFolderTrustStore {
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

  /** Whether the user trusts `folder` (relative paths start at the current folder). */
  async getFolderTrust(folder: string): Promise<FolderTrustDecision> {
    const path = await realFolderPath(folder);
    const decision = findDecision(await this.#readFolders(), path);
    return { folder: path, trusted: decision?.trusted === true, decidedBy: decision?.folder };
  }

  /**
   * Trusts (`true`) or untrusts (`false`) `folder` for the user. Trusting records the folder as
   * trusted; untrusting removes its own record and, when a trusted ancestor would still cover it,
   * records it as not trusted, so it is untrusted afterwards in every case. Records of subfolders
   * are left as they are.
   */
  async setFolderTrust(folder: string, trusted: boolean): Promise<FolderTrustChange> {
    const path = await realFolderPath(folder);
    return this.#context.access.withLock(
      userLockId(this.user, 'write', 'trusted-folders'),
      async () => {
        const folders = await this.#readFolders();
        const before = findDecision(folders, path);
        if ((before?.trusted === true) === trusted) {
          return { folder: path, trusted, decidedBy: before?.folder, changed: false };
        }
        folders.delete(path);
        if (trusted) folders.set(path, true);
        else if (findDecision(folders, path)?.trusted === true) folders.set(path, false);
        const document: TrustDocument = { format: 'toolhost-trusted-folders', v: 1, folders: Object.fromEntries(folders) };
        await this.#context.access.write(this.#key, document, WHAT);
        return { folder: path, trusted, decidedBy: findDecision(folders, path)?.folder, changed: true };
      },
      this.#context.timing,
    );
  }

  /** Every recorded folder of the user and whether it is trusted. */
  async list(): Promise<ReadonlyMap<string, boolean>> {
    return this.#readFolders();
  }

  async #readFolders(): Promise<Map<string, boolean>> {
    const stored = await this.#context.access.read(this.#key, WHAT);
    if (stored === undefined) return new Map();
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
    return folders;
  }
}

/** Letter case is ignored on Windows and macOS, whose file systems usually ignore it. */
function comparable(path: string): string {
  return process.platform === 'win32' || process.platform === 'darwin' ? path.toLowerCase() : path;
}

function isSameOrInside(folder: string, ancestor: string): boolean {
  const rel = relative(comparable(ancestor), comparable(folder));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The nearest recorded folder that is `folder` or one of its ancestors. */
function findDecision(folders: ReadonlyMap<string, boolean>, folder: string): { folder: string; trusted: boolean } | undefined {
  let best: { folder: string; trusted: boolean } | undefined;
  for (const [recorded, trusted] of folders) {
    if (!isSameOrInside(folder, recorded)) continue;
    if (best === undefined || recorded.length > best.folder.length) best = { folder: recorded, trusted };
  }
  return best;
}

async function realFolderPath(folder: string): Promise<string> {
  try {
    return await realpath(resolve(folder));
  } catch {
    return resolve(folder);
  }
}
