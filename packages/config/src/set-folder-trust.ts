import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { removeJsoncProperty, setJsoncProperty } from './edit-jsonc.js';
import { editTextFile } from './edit-text-file.js';
import type { FolderTrustOptions } from './get-folder-trust.js';
import { readProjectServersToPin, type ProjectServerToPin } from './pin-project-servers.js';
import { findTrustDecision, isSameOrInside, parseTrustedFolders, realFolderPath } from './read-trusted-folders.js';
import { getTrustedFoldersFilePath } from './settings-paths.js';

/** Options of {@link setFolderTrust}. */
export interface SetFolderTrustOptions extends FolderTrustOptions {
  /** `true` trusts the folder and its subfolders; `false` makes sure the folder is not trusted. */
  readonly trusted: boolean;
}

/** What {@link setFolderTrust} did. */
export interface SetFolderTrustResult {
  /** The folder's real path (symbolic links resolved). */
  readonly folder: string;
  /** The trusted-folders file. */
  readonly filePath: string;
  /** Whether the folder is trusted now (always equal to the requested state). */
  readonly trusted: boolean;
  /** False when the folder already was in the requested state (its pinned servers may still have been renewed: `pinsChanged`). */
  readonly changed: boolean;
  /**
   * When trusting: the servers of the folder's project settings file that were pinned, i.e. exactly
   * what may now start (each as written); empty when untrusting or when the file has none.
   */
  readonly pinned: readonly ProjectServerToPin[];
  /** When trusting: false when the same servers, unchanged, were pinned already. */
  readonly pinsChanged: boolean;
  /** The recorded folder that now decides (`folder` itself or a trusted ancestor), if any. */
  readonly decidedBy: string | undefined;
}

/**
 * Trusts or untrusts a folder in `~/<appDir>/trusted-folders.json` (written atomically; a new file
 * gets mode 0600). Trusting also pins the servers of the folder's project settings file
 * (`<folder>/<appDir>/settings.json`): their launch identity and its digest are recorded under
 * `pinnedServers` of the record that decides (the folder's own, or that of the trusted ancestor
 * that covers it), and `loadSettings` blocks (`CHANGED_SINCE_TRUSTED`) any project server that is
 * not pinned as it is now. Trusting a folder that is already trusted only renews the pins.
 * Untrusting removes the folder's own record and, when a trusted ancestor would still cover it,
 * records it as not trusted, so the folder is untrusted afterwards in every case. Records of
 * subfolders are left as they are. Throws `FOLDER_NOT_FOUND` when the folder does not exist and
 * `FILE_MALFORMED`/`FILE_UNWRITABLE` {@link ConfigError}s for a broken store (left unchanged).
 */
export async function setFolderTrust(options: SetFolderTrustOptions): Promise<SetFolderTrustResult> {
  const folder = await realFolderPath(options.folder);
  const isFolder = await stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isFolder) {
    throw new ConfigError({
      code: 'FOLDER_NOT_FOUND',
      filePath: resolve(options.folder),
      message: `${resolve(options.folder)} is not an existing folder, so its trust cannot be changed. Check the path.`,
    });
  }
  const filePath = getTrustedFoldersFilePath(options);
  const pinned = options.trusted ? await readProjectServersToPin(folder, options) : [];
  const pinsValue = Object.fromEntries(pinned.map((server) => [server.name, server.pin]));
  return editTextFile(filePath, (text) => {
    const parsed = text === undefined ? undefined : parseTrustedFolders(text, filePath);
    const folders = parsed?.folders ?? new Map<string, boolean>();
    const before = findTrustDecision(folders, folder);
    const unchanged = { folder, filePath, trusted: options.trusted, changed: false, decidedBy: before?.folder, pinned, pinsChanged: false };
    if (options.trusted && before?.trusted === true) {
      const old = parsed?.pins.get(before.folder)?.get(folder);
      const same =
        old !== undefined && old.size === pinned.length && pinned.every((server) => old.get(server.name)?.digest === server.pin.digest);
      if (same) return { text, result: unchanged };
      const key = parsed?.keys.get(before.folder) ?? before.folder;
      const next = setJsoncProperty(text ?? '', { objectPath: [key, 'pinnedServers'], key: folder, value: pinsValue, filePath }).text;
      return { text: next, result: { ...unchanged, pinsChanged: true } };
    }
    if ((before?.trusted === true) === options.trusted) return { text, result: unchanged };
    const matches = (key: string): boolean => isAbsolute(key) && isSameOrInside(key, folder) && isSameOrInside(folder, key);
    let next = text === undefined ? undefined : removeJsoncProperty(text, { objectPath: [], key: folder, filePath, matches }).text;
    const remaining = new Map([...folders].filter(([key]) => !matches(key)));
    const inherited = findTrustDecision(remaining, folder);
    if ((inherited?.trusted === true) !== options.trusted) {
      const value = options.trusted ? { trusted: true, pinnedServers: { [folder]: pinsValue } } : { trusted: false };
      next = setJsoncProperty(next ?? '', { objectPath: [], key: folder, value, filePath }).text;
    } else if (options.trusted && inherited !== undefined) {
      // A trusted ancestor covers the folder once its own "not trusted" record is gone: pin there.
      const key = parsed?.keys.get(inherited.folder) ?? inherited.folder;
      next = setJsoncProperty(next ?? '', { objectPath: [key, 'pinnedServers'], key: folder, value: pinsValue, filePath }).text;
    }
    const decidedBy = (inherited?.trusted === true) === options.trusted ? inherited?.folder : folder;
    const result = { folder, filePath, trusted: options.trusted, changed: true, decidedBy, pinned, pinsChanged: options.trusted };
    return { text: next ?? '{}\n', result };
  });
}

/** Trusts a folder and its subfolders: `setFolderTrust({ ...options, trusted: true })`. */
export function trustFolder(options: FolderTrustOptions): Promise<SetFolderTrustResult> {
  return setFolderTrust({ ...options, trusted: true });
}

/** Makes sure a folder is not trusted: `setFolderTrust({ ...options, trusted: false })`. */
export function untrustFolder(options: FolderTrustOptions): Promise<SetFolderTrustResult> {
  return setFolderTrust({ ...options, trusted: false });
}
