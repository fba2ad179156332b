import type { FolderTrustStore, FolderTrustWriteOptions } from './folder-trust-store.js';
import { getFolderTrust, type FolderTrust, type FolderTrustOptions } from './get-folder-trust.js';
import { existingRealFolder, writeFolderTrustFiles, type FolderTrustFilesChange } from './set-folder-trust.js';
import { getTrustStore } from './settings-paths.js';

/** Where a {@link FileFolderTrustStore} keeps its files: `FolderTrustOptions` without `folder`. */
export type FileFolderTrustStoreOptions = Omit<FolderTrustOptions, 'folder'>;

/**
 * The {@link FolderTrustStore} of the trusted-folders files, as `getFolderTrust` and
 * `setFolderTrust` read and write them: `~/<appDir>/trusted-folders.json` (decisions and
 * `pinnedServers` in one file), or for `appDir` `.gemini` and `.qwen` Gemini CLI's or Qwen Code's
 * own `trustedFolders.json` with toolhost's pins in `toolhost-pinned-servers.json` next to it
 * (the environment variables and settings of those programs apply, see `getFolderTrust`). It is
 * what `loadSettings` and `McpToolHost` use when no other store is given; the files stay
 * byte-for-byte what `toolhost trust` writes.
 *
 * @example
 * ```ts
 * const files = new FileFolderTrustStore({ appDir: '.gemini' });
 * const { trusted, pinnedServers } = await files.getFolderTrust(process.cwd());
 * ```
 */
export class FileFolderTrustStore implements FolderTrustStore {
  readonly #location: FileFolderTrustStoreOptions;

  /** A store on the files of `location` (`appDir`, `homeDir`, `systemSettingsPath`, `env`). */
  constructor(location: FileFolderTrustStoreOptions = {}) {
    this.#location = location;
  }

  /** The trusted-folders file and the pins file, as {@link getTrustStore} finds them. */
  get filePaths(): { readonly filePath: string; readonly pinsFilePath: string } {
    const store = getTrustStore(this.#location);
    return { filePath: store.filePath, pinsFilePath: store.pinsFilePath };
  }

  /** `getFolderTrust({ ...location, folder })`: never rejects for a broken file (see `errors`). */
  getFolderTrust(folder: string): Promise<FolderTrust> {
    return getFolderTrust({ ...this.#location, folder });
  }

  /**
   * Trusts or untrusts `folder` in the files as `setFolderTrust` does, pinning
   * `options.pinnedServers` (omitted: the recorded pins are left as they are). Throws
   * `FOLDER_NOT_FOUND` when the folder does not exist, and `ConfigError`s for a broken file (left
   * unchanged).
   */
  async setFolderTrust(folder: string, trusted: boolean, options: FolderTrustWriteOptions = {}): Promise<FolderTrustFilesChange> {
    const path = await existingRealFolder(folder);
    return writeFolderTrustFiles(getTrustStore(this.#location), path, trusted, trusted ? options.pinnedServers : undefined);
  }
}
