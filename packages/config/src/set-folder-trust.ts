import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError } from './config-error.js';
import { removeJsoncProperty, setJsoncProperty } from './edit-jsonc.js';
import { editTextFile } from './edit-text-file.js';
import { samePins, type FolderTrustChange, type FolderTrustStore, type PinnedServers } from './folder-trust-store.js';
import type { FolderTrustOptions } from './get-folder-trust.js';
import {
  findGeminiTrustDecision,
  parseGeminiTrustedFolders,
  parsePinnedServersFile,
  type GeminiTrustLevel,
} from './gemini-trusted-folders.js';
import { readProjectServersToPin, type ProjectServerToPin } from './pin-project-servers.js';
import { readTextFile } from './read-text-file.js';
import { findTrustDecision, isSameOrInside, parseTrustedFolders, realFolderPath } from './read-trusted-folders.js';
import { getTrustStore, type TrustStore, type TrustStoreFormat } from './settings-paths.js';

/** Options of {@link setFolderTrust}. */
export interface SetFolderTrustOptions extends FolderTrustOptions {
  /** `true` trusts the folder and its subfolders; `false` makes sure the folder is not trusted. */
  readonly trusted: boolean;
}

/** What {@link setFolderTrust} did. */
export interface SetFolderTrustResult {
  /** The folder's real path (symbolic links resolved). */
  readonly folder: string;
  /** The format of the store: `toolhost`, or `gemini` for `.gemini` and `.qwen` (see `getTrustStore`). */
  readonly format: TrustStoreFormat;
  /** The trusted-folders file (Gemini CLI's or Qwen Code's `trustedFolders.json` for `.gemini` and `.qwen`). */
  readonly filePath: string;
  /** The file the pins were written to: `filePath`, or `toolhost-pinned-servers.json` next to a Gemini-format `filePath`. */
  readonly pinsFilePath: string;
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
  /**
   * Gemini format only: the level of the folder's own entry that was replaced, when it was
   * `TRUST_PARENT` (untrusting then also stops trusting the parent folder through that entry, as
   * Gemini CLI's own "Don't trust" does).
   */
  readonly replacedLevel?: GeminiTrustLevel | undefined;
}

/**
 * Trusts or untrusts a folder in `~/<appDir>/trusted-folders.json` (written atomically; a new file
 * gets mode 0600), or for `appDir` `.gemini` and `.qwen` in the program's own `trustedFolders.json`
 * (see "Gemini CLI and Qwen Code" below). Trusting also pins the servers of the folder's project settings file
 * (`<folder>/<appDir>/settings.json`): their launch identity and its digest are recorded under
 * `pinnedServers` of the record that decides (the folder's own, or that of the trusted ancestor
 * that covers it), and `loadSettings` blocks (`CHANGED_SINCE_TRUSTED`) any project server that is
 * not pinned as it is now. Trusting a folder that is already trusted only renews the pins.
 * Untrusting removes the folder's own record and, when a trusted ancestor would still cover it,
 * records it as not trusted, so the folder is untrusted afterwards in every case. Records of
 * subfolders are left as they are. Throws `FOLDER_NOT_FOUND` when the folder does not exist and
 * `FILE_MALFORMED`/`FILE_UNWRITABLE` {@link ConfigError}s for a broken store (left unchanged).
 *
 * Gemini CLI and Qwen Code: their `trustedFolders.json` takes only
 * `"<path>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST"`, so only such an entry is written
 * there, as their own trust dialog writes it: trusting a folder that is not trusted sets its
 * entry to `TRUST_FOLDER`; untrusting a trusted folder sets it to `DO_NOT_TRUST`. Comments and
 * other entries are kept; a file toolhost does not recognise (not an object, or a value that is
 * not one of the three levels) is never rewritten (`INVALID_TYPE`, `INVALID_VALUE`). The pins go
 * to toolhost's own `toolhost-pinned-servers.json` next to it, keyed by project folder
 * (`{ "<folder>": { "<server>": { "digest", "launch" } } }`); untrusting removes the pins of the
 * folder and of its subfolders. Both files are locked while they are edited (the lock is
 * `<file>.lock`, the one Gemini CLI takes too).
 */
export async function setFolderTrust(options: SetFolderTrustOptions): Promise<SetFolderTrustResult> {
  const folder = await existingRealFolder(options.folder);
  const pinned = options.trusted ? await readProjectServersToPin(folder, options, options.env) : [];
  const pins = options.trusted ? new Map(pinned.map((server) => [server.name, server.pin])) : undefined;
  return { ...(await writeFolderTrustFiles(getTrustStore(options), folder, options.trusted, pins)), pinned };
}

/** The real path of `folder`; throws `FOLDER_NOT_FOUND` when it is not an existing folder. */
export async function existingRealFolder(path: string): Promise<string> {
  const folder = await realFolderPath(path);
  const isFolder = await stat(folder).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isFolder) {
    throw new ConfigError({
      code: 'FOLDER_NOT_FOUND',
      filePath: resolve(path),
      message: `${resolve(path)} is not an existing folder, so its trust cannot be changed. Check the path.`,
    });
  }
  return folder;
}

/** What writing the trusted-folders files did: a {@link SetFolderTrustResult} without `pinned`. */
export type FolderTrustFilesChange = Omit<SetFolderTrustResult, 'pinned'>;

/**
 * Records the trust of `folder` (a real path) in the files of `store`, with `pins` as its pinned
 * servers when trusting (`undefined`: the recorded pins are left as they are).
 */
export async function writeFolderTrustFiles(
  store: TrustStore,
  folder: string,
  trusted: boolean,
  pins: PinnedServers | undefined,
): Promise<FolderTrustFilesChange> {
  if (store.format === 'gemini') return setGeminiFolderTrust(folder, trusted, store, trusted ? pins : undefined);
  const filePath = store.filePath;
  const pinsValue = pins === undefined ? undefined : Object.fromEntries(pins);
  return editTextFile(filePath, (text) => {
    const parsed = text === undefined ? undefined : parseTrustedFolders(text, filePath);
    const folders = parsed?.folders ?? new Map<string, boolean>();
    const before = findTrustDecision(folders, folder);
    const unchanged = {
      folder,
      format: store.format,
      filePath,
      pinsFilePath: filePath,
      trusted,
      changed: false,
      decidedBy: before?.folder,
      pinsChanged: false,
    };
    if (trusted && before?.trusted === true) {
      if (pins === undefined || samePins(parsed?.pins.get(before.folder)?.get(folder), pins)) return { text, result: unchanged };
      const key = parsed?.keys.get(before.folder) ?? before.folder;
      const next = setJsoncProperty(text ?? '', { objectPath: [key, 'pinnedServers'], key: folder, value: pinsValue, filePath }).text;
      return { text: next, result: { ...unchanged, pinsChanged: true } };
    }
    if ((before?.trusted === true) === trusted) return { text, result: unchanged };
    const matches = (key: string): boolean => isAbsolute(key) && isSameOrInside(key, folder) && isSameOrInside(folder, key);
    let next = text === undefined ? undefined : removeJsoncProperty(text, { objectPath: [], key: folder, filePath, matches }).text;
    const remaining = new Map([...folders].filter(([key]) => !matches(key)));
    const inherited = findTrustDecision(remaining, folder);
    if ((inherited?.trusted === true) !== trusted) {
      const value = !trusted
        ? { trusted: false }
        : pinsValue === undefined
          ? { trusted: true }
          : { trusted: true, pinnedServers: { [folder]: pinsValue } };
      next = setJsoncProperty(next ?? '', { objectPath: [], key: folder, value, filePath }).text;
    } else if (trusted && inherited !== undefined && pinsValue !== undefined) {
      // A trusted ancestor covers the folder once its own "not trusted" record is gone: pin there.
      const key = parsed?.keys.get(inherited.folder) ?? inherited.folder;
      next = setJsoncProperty(next ?? '', { objectPath: [key, 'pinnedServers'], key: folder, value: pinsValue, filePath }).text;
    }
    const decidedBy = (inherited?.trusted === true) === trusted ? inherited?.folder : folder;
    const result = { ...unchanged, changed: true, decidedBy, pinsChanged: trusted && pins !== undefined };
    return { text: next ?? '{}\n', result };
  });
}

/** True when `key` names `folder` itself (an absolute path, compared as `isSameOrInside` compares). */
function namesFolder(key: string, folder: string): boolean {
  return isAbsolute(key) && isSameOrInside(key, folder) && isSameOrInside(folder, key);
}

/** {@link setFolderTrust} for Gemini CLI's and Qwen Code's store: their file gets trust levels only, toolhost's pins file the pins. */
async function setGeminiFolderTrust(
  folder: string,
  trusted: boolean,
  store: TrustStore,
  pins: PinnedServers | undefined,
): Promise<FolderTrustFilesChange> {
  const { filePath, pinsFilePath } = store;
  // A trusted-folders file toolhost does not recognise stops everything before any file is written.
  const current = await readTextFile(filePath);
  if (current !== undefined) parseGeminiTrustedFolders(current, filePath);
  let pinsChanged = false;
  // Pins first: pins of a folder that is not trusted do nothing, so a failure between the two
  // writes never lets an unpinned server start.
  if (trusted && pins !== undefined) {
    const pinsValue = Object.fromEntries(pins);
    pinsChanged = await editTextFile(pinsFilePath, (text) => {
      const old = text === undefined ? undefined : parsePinnedServersFile(text, pinsFilePath).get(folder);
      if (samePins(old, pins)) return { text, result: false };
      let next =
        text === undefined
          ? ''
          : removeJsoncProperty(text, {
              objectPath: [],
              key: folder,
              filePath: pinsFilePath,
              matches: (key) => key !== folder && namesFolder(key, folder),
            }).text;
      next = setJsoncProperty(next, { objectPath: [], key: folder, value: pinsValue, filePath: pinsFilePath }).text;
      return { text: next, result: true };
    });
  }
  type Edited = { changed: boolean; decidedBy: string | undefined; replacedLevel: GeminiTrustLevel | undefined };
  const edited = await editTextFile<Edited>(filePath, (text) => {
    const rules = text === undefined ? new Map<string, GeminiTrustLevel>() : parseGeminiTrustedFolders(text, filePath).rules;
    const before = findGeminiTrustDecision(rules, folder);
    if ((before?.trusted === true) === trusted)
      return { text, result: { changed: false, decidedBy: before?.folder, replacedLevel: undefined } };
    const level: GeminiTrustLevel = trusted ? 'TRUST_FOLDER' : 'DO_NOT_TRUST';
    const replacedLevel = [...rules].find(([key]) => namesFolder(key, folder))?.[1];
    let next = text ?? '';
    if (text !== undefined) {
      next = removeJsoncProperty(text, {
        objectPath: [],
        key: folder,
        filePath,
        matches: (key) => key !== folder && namesFolder(key, folder),
      }).text;
    }
    next = setJsoncProperty(next, { objectPath: [], key: folder, value: level, filePath }).text;
    return { text: next, result: { changed: true, decidedBy: folder, replacedLevel } };
  });
  if (!trusted) {
    // The pins of the folder and its subfolders go with its trust, as they do in toolhost's own store.
    await editTextFile(pinsFilePath, (text) => {
      if (text === undefined) return { text, result: undefined };
      const matches = (key: string): boolean => isAbsolute(key) && isSameOrInside(key, folder);
      return { text: removeJsoncProperty(text, { objectPath: [], key: folder, filePath: pinsFilePath, matches }).text, result: undefined };
    });
  }
  return {
    folder,
    format: store.format,
    filePath,
    pinsFilePath,
    trusted,
    changed: edited.changed,
    decidedBy: edited.decidedBy,
    pinsChanged,
    replacedLevel: edited.replacedLevel === 'TRUST_PARENT' ? 'TRUST_PARENT' : undefined,
  };
}

/** Trusts a folder and its subfolders: `setFolderTrust({ ...options, trusted: true })`. */
export function trustFolder(options: FolderTrustOptions): Promise<SetFolderTrustResult> {
  return setFolderTrust({ ...options, trusted: true });
}

/** Makes sure a folder is not trusted: `setFolderTrust({ ...options, trusted: false })`. */
export function untrustFolder(options: FolderTrustOptions): Promise<SetFolderTrustResult> {
  return setFolderTrust({ ...options, trusted: false });
}

/** What {@link setStoredFolderTrust} did. */
export interface SetStoredFolderTrustResult extends FolderTrustChange {
  /**
   * When trusting: the servers of the folder's project settings file that were pinned, i.e. exactly
   * what may now start (each as written); empty when untrusting or when the file has none.
   */
  readonly pinned: readonly ProjectServerToPin[];
}

/**
 * `setFolderTrust` for any {@link FolderTrustStore} (a database, memory): trusting reads the
 * folder's project settings file (`<folder>/<appDir>/settings.json`, found with `appDir` and
 * `homeDir` of `options`) and records its servers as the folder's pins, so that a server changed
 * or added afterwards is blocked (`CHANGED_SINCE_TRUSTED`) until the folder is trusted again;
 * untrusting removes the folder's trust and its pins. Throws `FOLDER_NOT_FOUND` when the folder
 * does not exist; a store that fails rejects with its own error.
 *
 * @example
 * ```ts
 * const trust = new MemoryFolderTrustStore();
 * const { pinned } = await setStoredFolderTrust(trust, { folder: projectDir, trusted: true });
 * ```
 */
export async function setStoredFolderTrust(store: FolderTrustStore, options: SetFolderTrustOptions): Promise<SetStoredFolderTrustResult> {
  const folder = await existingRealFolder(options.folder);
  const pinned = options.trusted ? await readProjectServersToPin(folder, options, options.env) : [];
  const change = await store.setFolderTrust(
    folder,
    options.trusted,
    options.trusted ? { pinnedServers: new Map(pinned.map((server) => [server.name, server.pin])) } : {},
  );
  return { ...change, pinned };
}
