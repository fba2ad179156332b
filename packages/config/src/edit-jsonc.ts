import { applyEdits, type Edit, type Node } from 'jsonc-parser';
import { detectJsonTextStyle, formatJsonValue, type JsonTextStyle } from './format-json-value.js';
import { errorAtNode, findPropertyValue, parseJsoncDocument, type JsoncDocument } from './read-jsonc.js';
import { isFirstOnLine, isRestOfLineBlank, lineIndent, lineStart, nextToken, skipWhitespaceBackward } from './text-scan.js';

// Edits that touch only the entry being added or removed. jsonc-parser's `modify` reformats the
// neighbouring entry and drops the comments between entries on removal, so the offsets of its
// syntax tree are used directly and the edits applied with `applyEdits`.

/** Options of {@link setJsoncProperty} and {@link removeJsoncProperty}. */
export interface JsoncPropertyEdit {
  /** Keys from the top-level object to the object that holds the property (`[]` for the top level). */
  readonly objectPath: readonly string[];
  /** The property to set or remove. */
  readonly key: string;
  /** File the text comes from, for error messages. */
  readonly filePath: string;
}

/**
 * Sets `key` in the object at `objectPath` (creating the missing objects), keeping every other
 * byte of the text: comments, formatting and other settings. A new key goes after the last one.
 * Throws `FILE_MALFORMED` or `INVALID_TYPE` {@link index!ConfigError}s without changing anything.
 */
export function setJsoncProperty(text: string, edit: JsoncPropertyEdit & { readonly value: unknown }): { text: string; replaced: boolean } {
  const document = parseJsoncDocument(text, edit.filePath);
  const style = detectJsonTextStyle(text);
  const nested = [...edit.objectPath, edit.key].reduceRight<unknown>((value, key) => ({ [key]: value }), edit.value);
  if (document.root === undefined) {
    const prefix = text.trim() === '' ? '' : text.endsWith('\n') ? text : text + style.eol;
    return { text: `${prefix}${formatJsonValue(nested, style)}${style.eol}`, replaced: false };
  }
  let object = expectObject(document, document.root, []);
  for (const [index, key] of edit.objectPath.entries()) {
    const child = findPropertyValue(object, key);
    if (child === undefined) {
      const rest = edit.objectPath.slice(index + 1);
      const value = [...rest, edit.key].reduceRight<unknown>((inner, name) => ({ [name]: inner }), edit.value);
      return { text: applyEdits(text, insertProperty(document, object, key, value, style)), replaced: false };
    }
    object = expectObject(document, child, edit.objectPath.slice(0, index + 1));
  }
  const existing = findPropertyValue(object, edit.key);
  if (existing === undefined)
    return { text: applyEdits(text, insertProperty(document, object, edit.key, edit.value, style)), replaced: false };
  const indent = lineIndent(text, existing.parent?.offset ?? existing.offset);
  const replacement = formatJsonValue(edit.value, style, indent);
  return { text: applyEdits(text, [{ offset: existing.offset, length: existing.length, content: replacement }]), replaced: true };
}

/**
 * Removes every property whose key satisfies `matches` (default: equals `key`) from the object at
 * `objectPath`, keeping comments outside the removed entries, and the formatting.
 * Returns the new text and how many properties were removed (0 leaves the text unchanged).
 */
export function removeJsoncProperty(
  text: string,
  edit: JsoncPropertyEdit & { readonly matches?: (key: string) => boolean },
): { text: string; removed: number } {
  const matches = edit.matches ?? ((key: string) => key === edit.key);
  let current = text;
  let removed = 0;
  const initial = findObject(parseJsoncDocument(text, edit.filePath), edit.objectPath);
  const occurrences = (initial?.children ?? []).filter((property) => matches(String(property.children?.[0]?.value))).length;
  while (removed < occurrences) {
    const document = parseJsoncDocument(current, edit.filePath);
    const object = findObject(document, edit.objectPath);
    const index = object?.children?.findIndex((property) => matches(String(property.children?.[0]?.value))) ?? -1;
    if (object === undefined || index < 0) break;
    current = applyEdits(current, removalEdits(current, object, index));
    removed++;
    const after = findObject(parseJsoncDocument(current, edit.filePath), edit.objectPath);
    if (after !== undefined && (after.children ?? []).length === 0) {
      const interior = current.slice(after.offset + 1, after.offset + after.length - 1);
      if (interior !== '' && interior.trim() === '')
        current = applyEdits(current, [{ offset: after.offset + 1, length: interior.length, content: '' }]);
    }
  }
  return { text: current, removed };
}

function findObject(document: JsoncDocument, path: readonly string[]): Node | undefined {
  let node = document.root;
  for (const key of path) node = findPropertyValue(node, key);
  return node?.type === 'object' ? node : undefined;
}

function expectObject(document: JsoncDocument, node: Node, path: readonly string[]): Node {
  if (node.type === 'object') return node;
  throw errorAtNode(document, node, {
    code: 'INVALID_TYPE',
    path,
    problem: `must be an object ({ ... }) to hold ${path.length === 0 ? 'settings' : 'entries'}, but it is ${node.type === 'array' ? 'a list' : `a ${node.type}`}. Fix it by hand; the file was not changed.`,
  });
}

function insertProperty(document: JsoncDocument, object: Node, key: string, value: unknown, style: JsonTextStyle): Edit[] {
  const text = document.text;
  const close = object.offset + object.length - 1;
  const properties = object.children ?? [];
  const last = properties[properties.length - 1];
  const openIndent = lineIndent(text, object.parent?.offset ?? object.offset);
  const indent = last !== undefined && isFirstOnLine(text, last.offset) ? lineIndent(text, last.offset) : openIndent + style.indentUnit;
  const position = skipWhitespaceBackward(text, close);
  const gap = text.slice(position, close);
  const closeOnSameLine = !gap.includes('\n');
  let content = `${style.eol}${indent}${JSON.stringify(key)}: ${formatJsonValue(value, style, indent)}`;
  if (closeOnSameLine) content += style.eol + openIndent;
  const edits: Edit[] = [];
  if (last !== undefined) {
    const lastEnd = last.offset + last.length;
    if (!nextToken(text, lastEnd).isComma) {
      if (lastEnd === position) content = `,${content}`;
      else edits.push({ offset: lastEnd, length: 0, content: ',' });
    }
  }
  edits.push({ offset: position, length: closeOnSameLine ? gap.length : 0, content });
  return edits;
}

function removalEdits(text: string, object: Node, index: number): Edit[] {
  const properties = object.children ?? [];
  const property = properties[index] as Node;
  const start = property.offset;
  const end = start + property.length;
  const after = nextToken(text, end);
  const hasNext = index < properties.length - 1;
  if (hasNext && after.isComma) {
    let to = after.offset + 1;
    const blankAfter = isRestOfLineBlank(text, to);
    if (blankAfter) {
      const newline = text.indexOf('\n', to);
      to = newline === -1 ? text.length : newline + 1;
    } else {
      while (text[to] === ' ' || text[to] === '\t') to++;
    }
    const from = blankAfter && isFirstOnLine(text, start) ? lineStart(text, start) : start;
    return [{ offset: from, length: to - from, content: '' }];
  }
  const to = after.isComma ? after.offset + 1 : end;
  let from: number;
  if (isFirstOnLine(text, start)) {
    const begin = lineStart(text, start);
    from = begin - (text[begin - 2] === '\r' ? 2 : 1);
  } else {
    from = skipWhitespaceBackward(text, start);
  }
  const edits: Edit[] = [{ offset: from, length: to - from, content: '' }];
  const previous = properties[index - 1];
  if (previous !== undefined) {
    const comma = nextToken(text, previous.offset + previous.length);
    if (comma.isComma && comma.offset < from) edits.push({ offset: comma.offset, length: 1, content: '' });
  }
  return edits;
}
