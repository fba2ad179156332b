import { parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import { formatJsonPath, offsetToPosition, type JsonPathSegment } from './json-path.js';

/** Keys that are never copied out of a settings file, at any depth. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** A parsed JSON-with-comments file: the text and its syntax tree (offsets index into `text`). */
export interface JsoncDocument {
  /** The file text exactly as read. */
  readonly text: string;
  /** The tree of the top-level value; `undefined` for a file with no value (empty or only comments). */
  readonly root: Node | undefined;
  /** Path of the file, for messages. */
  readonly filePath: string;
}

/**
 * Parses a JSON-with-comments text (trailing commas allowed, a leading byte order mark ignored).
 * Throws a `FILE_MALFORMED` {@link ConfigError} with the line and column of the first syntax error.
 */
export function parseJsoncDocument(text: string, filePath: string): JsoncDocument {
  // Same length as `text`, so every offset of the tree also indexes the original text.
  const scanned = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const errors: ParseError[] = [];
  const root = parseTree(scanned, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  const first = errors[0];
  if (first !== undefined) {
    const { line, column } = offsetToPosition(text, first.offset);
    throw new ConfigError({
      code: 'FILE_MALFORMED',
      filePath,
      jsonPath: '',
      line,
      column,
      message: `${filePath}:${line}:${column}: the settings file is not valid JSON (${printParseErrorCode(first.error)}). Fix the file; nothing was read from it.`,
    });
  }
  return { text, root, filePath };
}

/** Returns the value node of `key` in an object node (the last one if the key repeats). */
export function findPropertyValue(objectNode: Node | undefined, key: string): Node | undefined {
  if (objectNode?.type !== 'object') return undefined;
  let found: Node | undefined;
  for (const property of objectNode.children ?? []) {
    const [keyNode, valueNode] = property.children ?? [];
    if (keyNode?.value === key && valueNode !== undefined) found = valueNode;
  }
  return found;
}

/** Where a value came from, used to name warnings. */
export interface NodeValueContext {
  /** Settings file, for warnings. */
  readonly filePath: string;
  /** Receives warnings about ignored and duplicate keys. */
  readonly warnings: ConfigWarning[];
  /** Server the value belongs to, if any. */
  readonly serverName?: string;
}

/**
 * Converts a tree node into a plain value. `__proto__`, `constructor` and `prototype` keys are
 * skipped (with an `IGNORED_KEY` warning); a repeated key keeps its last value (`DUPLICATE_KEY`).
 */
export function nodeToValue(node: Node, path: readonly JsonPathSegment[], context: NodeValueContext): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (keyNode === undefined || valueNode === undefined) continue;
        const key = String(keyNode.value);
        const childPath = [...path, key];
        if (FORBIDDEN_KEYS.has(key)) {
          warn(context, 'IGNORED_KEY', childPath, `The key "${key}" is never read from settings; remove it.`);
          continue;
        }
        if (seen.has(key))
          warn(context, 'DUPLICATE_KEY', childPath, `"${key}" appears more than once; the last one is used. Remove the others.`);
        seen.add(key);
        out[key] = nodeToValue(valueNode, childPath, context);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((child, index) => nodeToValue(child, [...path, index], context));
    default:
      return node.value;
  }
}

function warn(context: NodeValueContext, code: 'IGNORED_KEY' | 'DUPLICATE_KEY', path: readonly JsonPathSegment[], message: string): void {
  const jsonPath = formatJsonPath(path);
  context.warnings.push({
    code,
    filePath: context.filePath,
    jsonPath,
    message: `${context.filePath}: ${jsonPath}: ${message}`,
    ...(context.serverName === undefined ? {} : { serverName: context.serverName }),
  });
}

/** Builds a {@link ConfigError} located at `node` in the document. */
export function errorAtNode(
  document: JsoncDocument,
  node: Node | undefined,
  options: { code: ConfigError['code']; path: readonly JsonPathSegment[]; problem: string; serverName?: string },
): ConfigError {
  const jsonPath = formatJsonPath(options.path);
  const position = node === undefined ? undefined : offsetToPosition(document.text, node.offset);
  const where = position === undefined ? document.filePath : `${document.filePath}:${position.line}:${position.column}`;
  return new ConfigError({
    code: options.code,
    filePath: document.filePath,
    jsonPath,
    ...(position ?? {}),
    ...(options.serverName === undefined ? {} : { serverName: options.serverName }),
    message: `${where}: ${jsonPath === '' ? 'the file' : jsonPath}: ${options.problem}`,
  });
}
