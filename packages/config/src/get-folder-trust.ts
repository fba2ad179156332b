import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import type { EnvironmentVariables } from './expand-env-vars.js';
import type { FolderTrustDecision, PinnedServers } from './folder-trust-store.js';
import { findGeminiTrustDecision, readGeminiTrustedFolders, readPinnedServersFile } from './gemini-trusted-folders.js';
import { findPropertyValue, parseJsoncDocument } from './read-jsonc.js';
import { readTextFile } from './read-text-file.js';
import { findTrustDecision, readTrustedFolders, realFolderPath } from './read-trusted-folders.js';
import { getSettingsFilePath, getTrustStore, type SettingsLocation, type TrustStoreFormat } from './settings-paths.js';

/** Options of {@link getFolderTrust}, `trustFolder` and `untrustFolder`. */
export interface FolderTrustOptions extends Pick<SettingsLocation, 'appDir' | 'homeDir' | 'systemSettingsPath'> {
  /** The folder to look at or change (relative paths start at the current folder); symbolic links are resolved. */
  readonly folder: string;
  /**
   * Environment variables. With `appDir` `.gemini` or `.qwen` they may move the store
   * (`GEMINI_CLI_TRUSTED_FOLDERS_PATH`, `QWEN_CODE_TRUSTED_FOLDERS_PATH`) and, for `.gemini`,
   * decide trust (`GEMINI_CLI_TRUST_WORKSPACE`). @default process.env
   */
  readonly env?: EnvironmentVariables;
}

/** Whether a folder is trusted, and why, as the trusted-folders files say (see {@link getFolderTrust}). */
export interface FolderTrust extends FolderTrustDecision {
  /** The folder's real path (symbolic links resolved). */
  readonly folder: string;
  /** True when the folder, or the nearest recorded folder above it, is recorded as trusted (or `overriddenBy` trusts every folder). */
  readonly trusted: boolean;
  /** The recorded folder that decided (`folder` itself or an ancestor), or `undefined` when none is recorded or `overriddenBy` decided. */
  readonly decidedBy: string | undefined;
  /**
   * For a Gemini-format store (`.gemini`, `.qwen`), when something other than the trusted-folders
   * file decided, what it was: `GEMINI_CLI_TRUST_WORKSPACE=true` (or `=false`), or
   * `security.folderTrust.enabled: false in <settings file>` (folder trust turned off: every
   * folder is trusted). Nothing is pinned then. `undefined` when the file decided.
   */
  readonly overriddenBy: string | undefined;
  /**
   * When trusted: the project servers of this folder that `toolhost trust` (`trustFolder`) recorded,
   * by name; `undefined` when it recorded none for this folder (a record written before pinning, a
   * subfolder covered by a trusted ancestor that was never trusted itself, or a folder trusted
   * only by Gemini CLI or Qwen Code) or when `overriddenBy` decided.
   */
  readonly pinnedServers: PinnedServers | undefined;
  /**
   * For a Gemini-format store: when the folder is trusted in Gemini CLI's or Qwen Code's
   * `trustedFolders.json` and `toolhost trust` never pinned its servers, that file (`filePath`).
   */
  readonly trustedUnpinnedIn?: string | undefined;
  /** The format of the store: `toolhost`, or `gemini` for `.gemini` and `.qwen`. */
  readonly format: TrustStoreFormat;
  /**
   * The trusted-folders file: `~/<appDir>/trusted-folders.json`, or for `.gemini` and `.qwen` the
   * program's own `trustedFolders.json`.
   */
  readonly filePath: string;
  /** The file holding the pinned servers: `filePath`, or `toolhost-pinned-servers.json` next to a Gemini-format `filePath`. */
  readonly pinsFilePath: string;
  /** A malformed or unreadable trusted-folders (or pins) file (then nothing is trusted, or nothing counts as pinned). */
  readonly errors: readonly ConfigError[];
  /** Ignored entries of the trusted-folders file. */
  readonly warnings: readonly ConfigWarning[];
}

/**
 * Tells whether the user trusts a folder. A trusted folder trusts its subfolders unless a
 * subfolder is recorded as not trusted. Paths are compared after resolving symbolic links, so a
 * link cannot borrow the trust of the folder it sits in.
 *
 * The store is `~/<appDir>/trusted-folders.json`, except for `appDir` `.gemini` and `.qwen`,
 * where Gemini CLI's or Qwen Code's own `~/<appDir>/trustedFolders.json` decides, read as Gemini
 * CLI reads it (the longest matching rule wins, see `findGeminiTrustDecision`), and where, as
 * in those programs, folder trust can be turned off: `"security": { "folderTrust": { "enabled":
 * false } }` in the user or system settings file (the system file wins), or, for `.gemini`,
 * `GEMINI_CLI_TRUST_WORKSPACE=true`, trust every folder (`GEMINI_CLI_TRUST_WORKSPACE=false`
 * trusts none). A project's own settings file can never turn it off.
 *
 * @example
 * const { trusted } = await getFolderTrust({ folder: process.cwd() });
 */
export async function getFolderTrust(options: FolderTrustOptions): Promise<FolderTrust> {
  const store = getTrustStore(options);
  const folder = await realFolderPath(options.folder);
  const base = { folder, format: store.format, filePath: store.filePath, pinsFilePath: store.pinsFilePath };
  if (store.format === 'toolhost') {
    const found = await readTrustedFolders(store.filePath);
    const decision = findTrustDecision(found.folders, folder);
    return {
      ...base,
      trusted: decision?.trusted === true,
      decidedBy: decision?.folder,
      overriddenBy: undefined,
      pinnedServers: decision?.trusted === true ? found.pins?.get(decision.folder)?.get(folder) : undefined,
      errors: found.errors,
      warnings: found.warnings,
    };
  }
  const override = await findTrustOverride(options, store.trustEnvVar);
  if (override !== undefined) {
    return {
      ...base,
      trusted: override.trusted,
      decidedBy: undefined,
      overriddenBy: override.by,
      pinnedServers: undefined,
      errors: [],
      warnings: [],
    };
  }
  const [found, pins] = await Promise.all([readGeminiTrustedFolders(store.filePath), readPinnedServersFile(store.pinsFilePath)]);
  const decision = found.errors.length > 0 ? undefined : findGeminiTrustDecision(found.rules, folder);
  const trusted = decision?.trusted === true;
  return {
    ...base,
    trusted,
    decidedBy: decision?.folder,
    overriddenBy: undefined,
    pinnedServers: trusted ? pins.pins.get(folder) : undefined,
    ...(trusted && pins.pins.get(folder) === undefined ? { trustedUnpinnedIn: store.filePath } : {}),
    errors: [...found.errors, ...(trusted ? pins.errors : [])],
    warnings: found.warnings,
  };
}

/**
 * What decides trust before Gemini CLI's trusted-folders file is read: the program's variable
 * (`"true"` trusts, `"false"` distrusts), then `security.folderTrust.enabled: false` in the system
 * or else the user settings file.
 */
async function findTrustOverride(
  options: FolderTrustOptions,
  trustEnvVar: string | undefined,
): Promise<{ trusted: boolean; by: string } | undefined> {
  const env = options.env ?? process.env;
  const value = trustEnvVar === undefined ? undefined : env[trustEnvVar];
  if (value === 'true' || value === 'false') return { trusted: value === 'true', by: `${trustEnvVar}=${value}` };
  for (const filePath of [options.systemSettingsPath, getSettingsFilePath('user', options)]) {
    if (filePath === undefined) continue;
    const enabled = await readFolderTrustEnabled(filePath);
    if (enabled === false) return { trusted: true, by: `"security.folderTrust.enabled": false in ${filePath}` };
    if (enabled === true) return undefined;
  }
  return undefined;
}

/** `security.folderTrust.enabled` of a settings file, or `undefined` when it is not a boolean there (or the file cannot be read). */
async function readFolderTrustEnabled(filePath: string): Promise<boolean | undefined> {
  try {
    const text = await readTextFile(filePath);
    if (text === undefined) return undefined;
    const root = parseJsoncDocument(text, filePath).root;
    const enabled = findPropertyValue(findPropertyValue(findPropertyValue(root, 'security'), 'folderTrust'), 'enabled');
    return enabled?.type === 'boolean' ? (enabled.value as boolean) : undefined;
  } catch {
    return undefined;
  }
}
