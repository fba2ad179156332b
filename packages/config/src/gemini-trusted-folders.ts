import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import { formatJsonPath } from './json-path.js';
import type { FolderPins } from './read-trusted-folders.js';
import { isSameOrInside, parsePinnedServers } from './read-trusted-folders.js';
import { errorAtNode, findPropertyValue, FORBIDDEN_KEYS, nodeToValue, parseJsoncDocument } from './read-jsonc.js';
import { readTextFile } from './read-text-file.js';

/** The trust levels of Gemini CLI's and Qwen Code's `trustedFolders.json`. */
export const GEMINI_TRUST_LEVELS = ['TRUST_FOLDER', 'TRUST_PARENT', 'DO_NOT_TRUST'] as const;

/**
 * One trust level: `TRUST_FOLDER` trusts the path and everything under it, `TRUST_PARENT` trusts
 * the path's parent folder (and so everything under that), `DO_NOT_TRUST` distrusts the path and
 * everything under it.
 */
export type GeminiTrustLevel = (typeof GEMINI_TRUST_LEVELS)[number];

/** The rules of a Gemini-format trusted-folders file, read by {@link readGeminiTrustedFolders}. */
export interface GeminiTrustedFolders {
  /** Each rule: its key as written and its level (entries whose key is not an absolute path are left out, with a warning). */
  readonly rules: ReadonlyMap<string, GeminiTrustLevel>;
  /** A file that is not JSON with comments, not an object, or holds a value that is not a trust level: then no folder is trusted. */
  readonly errors: readonly ConfigError[];
  /** Ignored entries. */
  readonly warnings: readonly ConfigWarning[];
}

/** The rule that decides a folder's trust in a Gemini-format file. */
export interface GeminiTrustDecision {
  /** Whether the folder is trusted. */
  readonly trusted: boolean;
  /** The key of the deciding rule, as written. */
  readonly rule: string;
  /** Its level. */
  readonly level: GeminiTrustLevel;
  /** The folder the rule applies to (the key, or its parent for `TRUST_PARENT`), symbolic links resolved. */
  readonly folder: string;
}

function isTrustLevel(value: unknown): value is GeminiTrustLevel {
  return typeof value === 'string' && (GEMINI_TRUST_LEVELS as readonly string[]).includes(value);
}

/**
 * Parses the text of Gemini CLI's or Qwen Code's `trustedFolders.json`:
 * `{ "<absolute path>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST" }` (JSON with comments).
 * Throws a `ConfigError` for a file toolhost does not recognise, so that it is neither trusted
 * from nor rewritten: `FILE_MALFORMED` (not JSON with comments), `INVALID_TYPE` (not an object),
 * `INVALID_VALUE` (a value that is not one of the three levels; Gemini CLI refuses such a file too).
 * A key that is not an absolute path is left out with an `INVALID_TRUST_ENTRY` warning.
 */
export function parseGeminiTrustedFolders(
  text: string,
  filePath: string,
): { rules: Map<string, GeminiTrustLevel>; warnings: ConfigWarning[] } {
  const rules = new Map<string, GeminiTrustLevel>();
  const warnings: ConfigWarning[] = [];
  const document = parseJsoncDocument(text, filePath);
  const root = document.root;
  if (root === undefined) return { rules, warnings };
  if (root.type !== 'object') {
    throw errorAtNode(document, root, {
      code: 'INVALID_TYPE',
      path: [],
      problem: `must hold an object of "<folder>": "TRUST_FOLDER" | "TRUST_PARENT" | "DO_NOT_TRUST" entries, but it is ${root.type === 'array' ? 'a list' : `a ${root.type}`}. Fix the file by hand; toolhost neither trusts a folder from it nor changes it.`,
    });
  }
  for (const property of root.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (keyNode === undefined || valueNode === undefined) continue;
    const key = String(keyNode.value);
    if (FORBIDDEN_KEYS.has(key)) continue;
    if (!isTrustLevel(valueNode.value) || valueNode.type !== 'string') {
      throw errorAtNode(document, findPropertyValue(root, key) ?? valueNode, {
        code: 'INVALID_VALUE',
        path: [key],
        problem: `the trust level must be "TRUST_FOLDER", "TRUST_PARENT" or "DO_NOT_TRUST", not ${valueNode.type === 'string' ? JSON.stringify(valueNode.value) : `a ${valueNode.type}`}. Fix the entry by hand; until then no folder is trusted from this file and toolhost does not change it.`,
      });
    }
    if (!isAbsolute(key)) {
      warnings.push({
        code: 'INVALID_TRUST_ENTRY',
        filePath,
        jsonPath: formatJsonPath([key]),
        message: `${filePath}: the entry "${key}" is ignored; its key must be an absolute folder path.`,
      });
      continue;
    }
    rules.set(key, valueNode.value);
  }
  return { rules, warnings };
}

/** Reads a Gemini-format trusted-folders file. A missing file has no rules; a broken one has none and reports an error. */
export async function readGeminiTrustedFolders(filePath: string): Promise<GeminiTrustedFolders> {
  try {
    const text = await readTextFile(filePath);
    if (text === undefined) return { rules: new Map(), errors: [], warnings: [] };
    const parsed = parseGeminiTrustedFolders(text, filePath);
    return { rules: parsed.rules, errors: [], warnings: parsed.warnings };
  } catch (error) {
    return { rules: new Map(), errors: [error as ConfigError], warnings: [] };
  }
}

/** The path with symbolic links resolved when it exists (as Gemini CLI compares them), else as given. */
function realOrResolved(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

const PRECEDENCE: Readonly<Record<GeminiTrustLevel, number>> = { DO_NOT_TRUST: 3, TRUST_FOLDER: 2, TRUST_PARENT: 1 };

/**
 * The rule that decides the trust of `folder` (a real path), as Gemini CLI decides it: among the
 * rules whose folder (the key, or its parent for `TRUST_PARENT`) is `folder` or one of its
 * ancestors, the one with the longest folder wins, and between rules on the same folder
 * `DO_NOT_TRUST` beats `TRUST_FOLDER`, which beats `TRUST_PARENT`. `undefined` when no rule
 * applies (the folder is then not trusted). Qwen Code's own reading differs in one case, where
 * toolhost is the stricter: Qwen Code ignores a `DO_NOT_TRUST` below a trusted folder.
 */
export function findGeminiTrustDecision(rules: ReadonlyMap<string, GeminiTrustLevel>, folder: string): GeminiTrustDecision | undefined {
  let best: GeminiTrustDecision | undefined;
  for (const [rule, level] of rules) {
    const applied = realOrResolved(level === 'TRUST_PARENT' ? dirname(resolve(rule)) : rule);
    if (!isSameOrInside(folder, applied)) continue;
    const better =
      best === undefined ||
      applied.length > best.folder.length ||
      (applied.length === best.folder.length && PRECEDENCE[level] > PRECEDENCE[best.level]);
    if (better) best = { trusted: level !== 'DO_NOT_TRUST', rule, level, folder: applied };
  }
  return best;
}

/** The pins of toolhost's `toolhost-pinned-servers.json`, read by {@link readPinnedServersFile}. */
export interface PinnedServersFile {
  /** Project folder (real path) → server name → what `trustFolder` pinned. */
  readonly pins: FolderPins;
  /** A malformed or unreadable file: then nothing counts as pinned. */
  readonly errors: readonly ConfigError[];
}

/**
 * Parses toolhost's pins file kept next to a Gemini-format store:
 * `{ "<project folder>": { "<server>": { "digest": "sha256:…", "launch": { … } } } }`.
 * Throws `FILE_MALFORMED` for text that is not JSON with comments and `INVALID_TYPE` when it is not an object.
 */
export function parsePinnedServersFile(text: string, filePath: string): FolderPins {
  const document = parseJsoncDocument(text, filePath);
  if (document.root === undefined) return new Map();
  if (document.root.type !== 'object') {
    throw errorAtNode(document, document.root, {
      code: 'INVALID_TYPE',
      path: [],
      problem: 'must hold an object of pinned servers by project folder. Delete the file and run "toolhost trust" again in each project.',
    });
  }
  return parsePinnedServers(nodeToValue(document.root, [], { filePath, warnings: [] })) ?? new Map();
}

/** Reads toolhost's pins file. A missing file pins nothing; a broken one pins nothing and reports an error. */
export async function readPinnedServersFile(filePath: string): Promise<PinnedServersFile> {
  try {
    const text = await readTextFile(filePath);
    return { pins: text === undefined ? new Map() : parsePinnedServersFile(text, filePath), errors: [] };
  } catch (error) {
    return { pins: new Map(), errors: [error as ConfigError] };
  }
}
