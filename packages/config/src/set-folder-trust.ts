import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { removeJsoncProperty, setJsoncProperty } from './edit-jsonc.js';
import { editTextFile } from './edit-text-file.js';
import type { FolderTrustOptions } from './get-folder-trust.js';
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
  /** False when the folder already was in the requested state (nothing was written). */
  readonly changed: boolean;
  /** The recorded folder that now decides (`folder` itself or a trusted ancestor), if any. */
  readonly decidedBy: string | undefined;
}

/**
 * Trusts or untrusts a folder in `~/<appDir>/trusted-folders.json` (written atomically; a new file
 * gets mode 0600). Trusting a folder that a trusted ancestor already covers writes nothing.
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
  return editTextFile(filePath, (text) => {
    const folders = text === undefined ? new Map<string, boolean>() : parseTrustedFolders(text, filePath).folders;
    const before = findTrustDecision(folders, folder);
    const unchanged = { folder, filePath, trusted: options.trusted, changed: false, decidedBy: before?.folder };
    if ((before?.trusted === true) === options.trusted) return { text, result: unchanged };
    const matches = (key: string): boolean => isAbsolute(key) && isSameOrInside(key, folder) && isSameOrInside(folder, key);
    let next = text === undefined ? undefined : removeJsoncProperty(text, { objectPath: [], key: folder, filePath, matches }).text;
    const remaining = new Map([...folders].filter(([key]) => !matches(key)));
    const inherited = findTrustDecision(remaining, folder);
    if ((inherited?.trusted === true) !== options.trusted) {
      next = setJsoncProperty(next ?? '', { objectPath: [], key: folder, value: { trusted: options.trusted }, filePath }).text;
    }
    const decidedBy = (inherited?.trusted === true) === options.trusted ? inherited?.folder : folder;
    return { text: next ?? '{}\n', result: { folder, filePath, trusted: options.trusted, changed: true, decidedBy } };
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
