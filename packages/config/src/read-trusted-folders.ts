import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import { formatJsonPath } from './json-path.js';
import { FORBIDDEN_KEYS, nodeToValue, parseJsoncDocument } from './read-jsonc.js';
import type { PinnedServer } from './pin-project-servers.js';
import { readTextFile } from './read-text-file.js';

/** Pins of one trusted record: project folder (absolute) → server name → what was trusted. */
export type FolderPins = ReadonlyMap<string, ReadonlyMap<string, PinnedServer>>;

/** The decisions recorded in `~/<appDir>/trusted-folders.json`, read by {@link readTrustedFolders}. */
export interface TrustedFolders {
  /** Recorded folders (absolute, as written) and whether each is trusted (`false`: explicitly not trusted). */
  readonly folders: ReadonlyMap<string, boolean>;
  /**
   * The `pinnedServers` of each trusted record (keyed like `folders`): for each project folder it
   * covers, the servers `toolhost trust` saw there. A record without them (written before pinning)
   * has no entry: its project servers are blocked until the folder is trusted again.
   */
  readonly pins?: ReadonlyMap<string, FolderPins>;
  /** A malformed or unreadable file; no folder is then trusted. */
  readonly errors: readonly ConfigError[];
  /** Entries that were ignored. */
  readonly warnings: readonly ConfigWarning[];
}

/**
 * Parses the text of a trusted-folders file:
 * `{ "<absolute folder>": { "trusted": true, "pinnedServers": { "<project folder>": { "<server>": { "digest": "sha256:…", "launch": {…} } } } } }`.
 * `keys` maps each folder to its key as written. Throws a `FILE_MALFORMED` `ConfigError` for text
 * that is not JSON with comments.
 */
export function parseTrustedFolders(
  text: string,
  filePath: string,
): { folders: Map<string, boolean>; pins: Map<string, FolderPins>; keys: Map<string, string>; warnings: ConfigWarning[] } {
  const folders = new Map<string, boolean>();
  const pins = new Map<string, FolderPins>();
  const keys = new Map<string, string>();
  const warnings: ConfigWarning[] = [];
  const root = parseJsoncDocument(text, filePath).root;
  if (root === undefined) return { folders, pins, keys, warnings };
  if (root.type !== 'object') {
    warnings.push({
      code: 'INVALID_TRUST_ENTRY',
      filePath,
      jsonPath: '',
      message: `${filePath}: the trusted-folders file must hold an object; no folder is trusted. Run "toolhost trust" again to rewrite it.`,
    });
    return { folders, pins, keys, warnings };
  }
  for (const property of root.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (keyNode === undefined || valueNode === undefined) continue;
    const key = String(keyNode.value);
    if (FORBIDDEN_KEYS.has(key)) continue;
    const value = nodeToValue(valueNode, [key], { filePath, warnings });
    const trusted = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['trusted'] : undefined;
    if (!isAbsolute(key) || typeof trusted !== 'boolean') {
      warnings.push({
        code: 'INVALID_TRUST_ENTRY',
        filePath,
        jsonPath: formatJsonPath([key]),
        message: `${filePath}: the entry "${key}" is ignored; entries must be "<absolute folder>": { "trusted": true } or { "trusted": false }.`,
      });
      continue;
    }
    folders.set(resolve(key), trusted);
    keys.set(resolve(key), key);
    const recorded = parsePinnedServers((value as Record<string, unknown>)['pinnedServers']);
    if (trusted && recorded !== undefined) pins.set(resolve(key), recorded);
  }
  return { folders, pins, keys, warnings };
}

/**
 * Pins by project folder, `{ "<absolute folder>": { "<server>": { "digest": "sha256:…", "launch": {…} } } }`
 * (the `pinnedServers` of a record, or toolhost's pins file next to a Gemini-format store);
 * malformed parts are left out (so their servers stay blocked). `undefined` when `value` is not an object.
 */
export function parsePinnedServers(value: unknown): FolderPins | undefined {
  if (!isPlainObject(value)) return undefined;
  const result = new Map<string, Map<string, PinnedServer>>();
  for (const [folder, servers] of Object.entries(value)) {
    if (!isAbsolute(folder) || !isPlainObject(servers)) continue;
    const byName = new Map<string, PinnedServer>();
    for (const [name, pin] of Object.entries(servers)) {
      if (!isPlainObject(pin) || typeof pin['digest'] !== 'string' || !isPlainObject(pin['launch'])) continue;
      byName.set(name, { digest: pin['digest'], launch: pin['launch'] });
    }
    result.set(resolve(folder), byName);
  }
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the trusted-folders file. A missing file trusts nothing; a broken one trusts nothing and reports an error. */
export async function readTrustedFolders(filePath: string): Promise<TrustedFolders> {
  try {
    const text = await readTextFile(filePath);
    if (text === undefined) return { folders: new Map(), pins: new Map(), errors: [], warnings: [] };
    const parsed = parseTrustedFolders(text, filePath);
    return { folders: parsed.folders, pins: parsed.pins, warnings: parsed.warnings, errors: [] };
  } catch (error) {
    return { folders: new Map(), pins: new Map(), errors: [error as ConfigError], warnings: [] };
  }
}

/** Letter case is ignored on Windows and macOS, whose file systems usually ignore it. */
function comparable(path: string): string {
  return process.platform === 'win32' || process.platform === 'darwin' ? path.toLowerCase() : path;
}

/** True when `folder` is `ancestor` or inside it. */
export function isSameOrInside(folder: string, ancestor: string): boolean {
  const rel = relative(comparable(ancestor), comparable(folder));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The recorded folder that decides the trust of `folder`: the nearest one that is `folder`
 * itself or one of its ancestors (a subfolder's own record wins over its parent's), or
 * `undefined` when none is recorded. `folder` must already be a real path.
 */
export function findTrustDecision(folders: ReadonlyMap<string, boolean>, folder: string): { folder: string; trusted: boolean } | undefined {
  let best: { folder: string; trusted: boolean } | undefined;
  for (const [recorded, trusted] of folders) {
    if (!isSameOrInside(folder, recorded)) continue;
    if (best === undefined || recorded.length > best.folder.length) best = { folder: recorded, trusted };
  }
  return best;
}

/**
 * The folder's real path (symbolic links resolved, so a link inside a trusted folder that points
 * elsewhere is judged by where it points), or its absolute path when it does not exist.
 */
export async function realFolderPath(folder: string): Promise<string> {
  try {
    return await realpath(resolve(folder));
  } catch {
    return resolve(folder);
  }
}
