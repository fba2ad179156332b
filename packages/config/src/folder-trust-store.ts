import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import type { PinnedServer } from './pin-project-servers.js';
import { findTrustDecision, isSameOrInside, realFolderPath } from './read-trusted-folders.js';

/** The pinned servers of one project folder: server name → what was trusted (see `pinServer`). */
export type PinnedServers = ReadonlyMap<string, PinnedServer>;

/** Whether a folder is trusted, which record decided, and the project servers pinned when it was trusted. */
export interface FolderTrustDecision {
  /** The folder's real path (symbolic links resolved; its absolute path when it does not exist). */
  readonly folder: string;
  /** True when the folder, or the nearest recorded folder above it, is recorded as trusted (or `overriddenBy` trusts it). */
  readonly trusted: boolean;
  /** The recorded folder that decided (`folder` itself or an ancestor), `undefined` when none is recorded or `overriddenBy` decided. */
  readonly decidedBy: string | undefined;
  /**
   * When trusted: the project servers pinned for this folder when it was trusted, by name (an empty
   * map when its project file had none); `undefined` when none were recorded for it (then every
   * project server of the folder is blocked with `CHANGED_SINCE_TRUSTED` until it is trusted again
   * with pins) or when `overriddenBy` decided.
   */
  readonly pinnedServers: PinnedServers | undefined;
  /**
   * When something other than the store's records decided (the file store of `.gemini` and
   * `.qwen`: `GEMINI_CLI_TRUST_WORKSPACE`, or folder trust turned off in a settings file), what it
   * was. Pins are not checked then.
   */
  readonly overriddenBy?: string | undefined;
  /**
   * When the folder is trusted by another program's records that never pinned its servers (a
   * folder trusted only in Gemini CLI or Qwen Code): the file that trusts it. Its project servers
   * then run as in that program, unchecked, and `loadSettings` warns `TRUST_NOT_PINNED`.
   */
  readonly trustedUnpinnedIn?: string | undefined;
  /** Problems reading the store that made it trust nothing (a malformed file). */
  readonly errors?: readonly ConfigError[];
  /** Ignored parts of the store. */
  readonly warnings?: readonly ConfigWarning[];
}

/** Options of {@link FolderTrustStore.setFolderTrust}. */
export interface FolderTrustWriteOptions {
  /**
   * When trusting: the project servers to pin for the folder (`pinServer` of each entry of its
   * project settings file, or `readProjectServersToPin`), replacing the ones recorded. Trusting a
   * folder that is trusted already only renews its pins. Omitted: the recorded pins are left as
   * they are (a folder that was not trusted has none, so its project servers stay blocked with
   * `CHANGED_SINCE_TRUSTED` until it is trusted with pins). Ignored when untrusting.
   */
  readonly pinnedServers?: PinnedServers;
}

/** What the `setFolderTrust` of a `FolderTrustStore` did. */
export interface FolderTrustChange {
  /** The folder's real path (symbolic links resolved). */
  readonly folder: string;
  /** Whether the folder is trusted now (always the requested state). */
  readonly trusted: boolean;
  /** False when the folder already was in the requested state (its pins may still have been renewed: `pinsChanged`). */
  readonly changed: boolean;
  /** The recorded folder that now decides (`folder` itself or a trusted ancestor), if any. */
  readonly decidedBy: string | undefined;
  /** True when the folder's pinned servers were written (trusting with `pinnedServers` that differ from the recorded ones). */
  readonly pinsChanged: boolean;
}

/**
 * Where folder-trust decisions and the pinned project servers of trusted folders are kept: the
 * files of `@toolhost/config` ({@link FileFolderTrustStore}, the default of `loadSettings` and
 * `McpToolHost`), memory ({@link MemoryFolderTrustStore}), or a database (`KeyvFolderTrustStore`
 * of `@toolhost/stores`, per user). Give one to `loadSettings({ trustStore })` or
 * `McpToolHost.create({ stores: { trust } })`; trust a folder in it with `setStoredFolderTrust`,
 * which pins the servers of the folder's project settings file.
 *
 * The rules are those of `~/<appDir>/trusted-folders.json`: a trusted folder trusts its
 * subfolders unless a subfolder is recorded as not trusted (the nearest record decides), folders
 * are compared as real paths, and a trusted folder's project servers run only as pinned (one that
 * changed or was added since is blocked with `CHANGED_SINCE_TRUSTED`). Implementations built on
 * {@link findRecordedFolderTrust} and {@link changeRecordedFolderTrust} apply them exactly.
 *
 * @example
 * ```ts
 * const store = new MemoryFolderTrustStore();
 * await setStoredFolderTrust(store, { folder: projectDir, trusted: true }); // pins its project servers
 * const settings = await loadSettings({ projectDir, trustStore: store });
 * ```
 */
export interface FolderTrustStore {
  /**
   * Whether `folder` is trusted (relative paths start at the current folder; symbolic links are
   * resolved), and its pinned servers. Rejects when the store cannot be read (then nothing starts).
   */
  getFolderTrust(folder: string): Promise<FolderTrustDecision>;
  /**
   * Trusts (`true`) or untrusts (`false`) `folder`. Trusting records the folder as trusted (unless
   * a trusted ancestor covers it) with `options.pinnedServers`; untrusting removes the folder's
   * own record and, when a trusted ancestor would still cover it, records it as not trusted, so
   * the folder is untrusted afterwards in every case, and drops the pins of the folders that are
   * no longer trusted. Records of subfolders are left as they are.
   */
  setFolderTrust(folder: string, trusted: boolean, options?: FolderTrustWriteOptions): Promise<FolderTrustChange>;
}

/**
 * The records of a store kept as data (memory, a database document): folder → trusted (`false`:
 * recorded as not trusted), and the pins of each trusted project folder.
 */
export interface FolderTrustRecords {
  /** Recorded folders (absolute real paths) and whether each is trusted. */
  readonly folders: ReadonlyMap<string, boolean>;
  /** Project folder (absolute real path) → its pinned servers. */
  readonly pins: ReadonlyMap<string, PinnedServers>;
}

/**
 * The decision {@link FolderTrustRecords} give for `folder` (a real path): the nearest recorded
 * folder that is `folder` or an ancestor decides, and a trusted folder's pins are its own entry of
 * `records.pins`.
 */
export function findRecordedFolderTrust(records: FolderTrustRecords, folder: string): FolderTrustDecision {
  const decision = findTrustDecision(records.folders, folder);
  const trusted = decision?.trusted === true;
  return { folder, trusted, decidedBy: decision?.folder, pinnedServers: trusted ? records.pins.get(folder) : undefined };
}

/** True when both name the same folder (compared as `isSameOrInside` compares). */
function sameFolder(a: string, b: string): boolean {
  return isSameOrInside(a, b) && isSameOrInside(b, a);
}

/** True when `pins` holds the same servers with the same digests as `recorded`. @internal */
export function samePins(recorded: PinnedServers | undefined, pins: PinnedServers): boolean {
  if (recorded === undefined || recorded.size !== pins.size) return false;
  for (const [name, pin] of pins) if (recorded.get(name)?.digest !== pin.digest) return false;
  return true;
}

/**
 * Applies {@link FolderTrustStore.setFolderTrust} to {@link FolderTrustRecords} (`folder` a real
 * path), with the rules of toolhost's `trusted-folders.json`, and returns the new records (the
 * same object when nothing changed) and what was done.
 */
export function changeRecordedFolderTrust(
  records: FolderTrustRecords,
  folder: string,
  trusted: boolean,
  options: FolderTrustWriteOptions = {},
): { readonly records: FolderTrustRecords; readonly change: FolderTrustChange } {
  const pinned = trusted ? options.pinnedServers : undefined;
  const before = findTrustDecision(records.folders, folder);
  if ((before?.trusted === true) === trusted) {
    const pinsChanged = pinned !== undefined && !samePins(records.pins.get(folder), pinned);
    const change = { folder, trusted, changed: false, decidedBy: before?.folder, pinsChanged };
    if (!pinsChanged) return { records, change };
    return { records: { folders: records.folders, pins: new Map([...records.pins, [folder, new Map(pinned)]]) }, change };
  }
  const folders = new Map([...records.folders].filter(([key]) => !sameFolder(key, folder)));
  if ((findTrustDecision(folders, folder)?.trusted === true) !== trusted) folders.set(folder, trusted);
  const pins = new Map(records.pins);
  if (trusted) {
    if (pinned !== undefined) pins.set(folder, new Map(pinned));
  } else {
    // The pins of the folders this change untrusted go with their trust.
    for (const key of pins.keys()) {
      if (isSameOrInside(key, folder) && findTrustDecision(folders, key)?.trusted !== true) pins.delete(key);
    }
  }
  const change = {
    folder,
    trusted,
    changed: true,
    decidedBy: findTrustDecision(folders, folder)?.folder,
    pinsChanged: pinned !== undefined,
  };
  return { records: { folders, pins }, change };
}

/**
 * A {@link FolderTrustStore} in memory, for one process (tests, a host whose own trust prompt
 * decides for the session). Nothing is kept after the process ends.
 *
 * @example
 * ```ts
 * const trust = new MemoryFolderTrustStore();
 * await setStoredFolderTrust(trust, { folder: projectDir, trusted: true });
 * const host = await McpToolHost.create({ projectDir, stores: { trust } });
 * ```
 */
export class MemoryFolderTrustStore implements FolderTrustStore {
  #records: FolderTrustRecords = { folders: new Map(), pins: new Map() };

  /** {@inheritDoc FolderTrustStore.getFolderTrust} */
  async getFolderTrust(folder: string): Promise<FolderTrustDecision> {
    return findRecordedFolderTrust(this.#records, await realFolderPath(folder));
  }

  /** {@inheritDoc FolderTrustStore.setFolderTrust} */
  async setFolderTrust(folder: string, trusted: boolean, options?: FolderTrustWriteOptions): Promise<FolderTrustChange> {
    const path = await realFolderPath(folder);
    const { records, change } = changeRecordedFolderTrust(this.#records, path, trusted, options);
    this.#records = records;
    return change;
  }

  /** The records as they are now. */
  records(): FolderTrustRecords {
    return this.#records;
  }
}
