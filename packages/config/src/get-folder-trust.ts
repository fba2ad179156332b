import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import type { PinnedServer } from './pin-project-servers.js';
import { findTrustDecision, readTrustedFolders, realFolderPath } from './read-trusted-folders.js';
import { getTrustedFoldersFilePath, type SettingsLocation } from './settings-paths.js';

/** Options of {@link getFolderTrust}, `trustFolder` and `untrustFolder`. */
export interface FolderTrustOptions extends Pick<SettingsLocation, 'appDir' | 'homeDir'> {
  /** The folder to look at or change (relative paths start at the current folder); symbolic links are resolved. */
  readonly folder: string;
}

/** Whether a folder is trusted, and why. */
export interface FolderTrust {
  /** The folder's real path (symbolic links resolved). */
  readonly folder: string;
  /** True when the folder, or the nearest recorded folder above it, is recorded as trusted. */
  readonly trusted: boolean;
  /** The recorded folder that decided (`folder` itself or an ancestor), or `undefined` when none is recorded. */
  readonly decidedBy: string | undefined;
  /**
   * When trusted: the project servers of this folder that `toolhost trust` (`trustFolder`) recorded,
   * by name; `undefined` when it recorded none for this folder (a record written before pinning, or
   * a subfolder covered by a trusted ancestor that was never trusted itself).
   */
  readonly pinnedServers: ReadonlyMap<string, PinnedServer> | undefined;
  /** The trusted-folders file, `~/<appDir>/trusted-folders.json`. */
  readonly filePath: string;
  /** A malformed or unreadable trusted-folders file (then nothing is trusted). */
  readonly errors: readonly ConfigError[];
  /** Ignored entries of the trusted-folders file. */
  readonly warnings: readonly ConfigWarning[];
}

/**
 * Tells whether the user trusts a folder, from `~/<appDir>/trusted-folders.json`. A trusted folder
 * trusts its subfolders unless a subfolder is recorded as not trusted. Paths are compared after
 * resolving symbolic links, so a link cannot borrow the trust of the folder it sits in.
 *
 * @example
 * const { trusted } = await getFolderTrust({ folder: process.cwd() });
 */
export async function getFolderTrust(options: FolderTrustOptions): Promise<FolderTrust> {
  const filePath = getTrustedFoldersFilePath(options);
  const [folder, store] = await Promise.all([realFolderPath(options.folder), readTrustedFolders(filePath)]);
  const decision = findTrustDecision(store.folders, folder);
  return {
    folder,
    trusted: decision?.trusted === true,
    decidedBy: decision?.folder,
    pinnedServers: decision?.trusted === true ? store.pins?.get(decision.folder)?.get(folder) : undefined,
    filePath,
    errors: store.errors,
    warnings: store.warnings,
  };
}
