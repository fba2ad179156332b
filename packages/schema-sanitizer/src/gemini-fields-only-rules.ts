import { jsonBoundsBreach } from '@toolhost/contract';
import { GEMINI_RULES, GEMINI_SCHEMA_FIELDS } from './gemini-rules.js';
import { isPlainObject } from './json-pointer.js';
import { mergeAllOf } from './openai-strict-rules.js';
import type { FinishInfo, ProfileRules } from './profile-rule-types.js';

type Node = Record<string, unknown>;
type Report = FinishInfo['report'];

/** The JSON types Gemini's `Type` enum names (besides `null`, which becomes `nullable`). */
const GEMINI_TYPES: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);

/**
 * The `format` values the Gemini API accepts per type. For strings it answers 400 "only 'enum'
 * and 'date-time' are supported for STRING type" (the rule Gemini CLI applied in 2025-07), for
 * integers "only 'int32' and 'int64' are supported for INTEGER type"; `@google/genai` documents
 * `float` and `double` for numbers.
 */
export const GEMINI_FORMATS: Readonly<Record<string, readonly string[]>> = {
  string: ['enum', 'date-time'],
  integer: ['int32', 'int64'],
  number: ['float', 'double'],
};

/** `Schema` fields the API reads as int64: a non-negative whole number. */
const COUNT_FIELDS: ReadonlySet<string> = new Set(['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties']);

/** Keywords that belong to one type, moved into that type's member when a type list becomes `anyOf`. */
const TYPE_KEYWORDS: Readonly<Record<string, readonly string[]>> = {
  string: ['pattern', 'minLength', 'maxLength'],
  array: ['items', 'prefixItems', 'minItems', 'maxItems'],
  object: ['properties', 'required', 'minProperties', 'maxProperties', 'propertyOrdering'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'],
};

function isNullSchema(member: unknown): boolean {
  if (!isPlainObject(member)) return false;
  const type = member['type'];
  if (type === 'null' || (Array.isArray(type) && type.length > 0 && type.every((item) => item === 'null'))) return true;
  return (
    member['const'] === null || (Array.isArray(member['enum']) && member['enum'].length > 0 && member['enum'].every((v) => v === null))
  );
}

/** Longest text of one value quoted in a note (a value from a server can be megabytes, or nested a million levels). */
const MAX_NOTED_VALUE_LENGTH = 200;

/**
 * A value as a note quotes it: a string as it is, anything else as JSON; cut at
 * {@link MAX_NOTED_VALUE_LENGTH} characters with `…`. An object or array too large or too deep
 * for that is measured first (without recursion) and written `{…}` / `[…]`, never passed to
 * `JSON.stringify`, which runs out of stack on deep values.
 */
function formatValue(value: unknown): string {
  if (typeof value === 'string') return value.length > MAX_NOTED_VALUE_LENGTH ? `${value.slice(0, MAX_NOTED_VALUE_LENGTH)}…` : value;
  if (typeof value === 'object' && value !== null && jsonBoundsBreach(value, { maxDepth: 32, maxLength: MAX_NOTED_VALUE_LENGTH })) {
    return Array.isArray(value) ? '[…]' : '{…}';
  }
  return JSON.stringify(value);
}

/** Append a note (what a dropped keyword said) to the node's description, so the model still reads it. */
function addNote(node: Node, note: string): void {
  const description = node['description'];
  node['description'] = typeof description === 'string' && description.trim() !== '' ? `${description.trimEnd()} (${note})` : note;
}

function lowerType(node: Node): string | undefined {
  const type = node['type'];
  return typeof type === 'string' ? type.toLowerCase() : undefined;
}

/**
 * `type` as one lowercase string the API knows, or none: `[X, "null"]` → `X` + `nullable`,
 * `"null"` → `nullable`, a wider list → `anyOf` of one member per type carrying that type's
 * keywords, an unknown type dropped.
 */
function normalizeType(node: Node, report: Report): void {
  let type = node['type'];
  if (type === undefined) return;
  if (Array.isArray(type)) {
    const types = [...new Set(type.filter((item): item is string => typeof item === 'string').map((item) => item.toLowerCase()))];
    if (types.includes('null')) node['nullable'] = true;
    const others = types.filter((item) => item !== 'null');
    if (others.length <= 1) type = others[0];
    else if (node['anyOf'] !== undefined || node['oneOf'] !== undefined) {
      report('type', 'not-merged');
      type = undefined;
    } else {
      node['anyOf'] = others.map((member) => {
        const out: Node = { type: member };
        for (const keyword of TYPE_KEYWORDS[member] ?? []) if (node[keyword] !== undefined) out[keyword] = node[keyword];
        if (member === 'string' && node['enum'] !== undefined) out['enum'] = node['enum'];
        const format = node['format'];
        if (typeof format === 'string' && (GEMINI_FORMATS[member] ?? []).includes(format)) out['format'] = format;
        return out;
      });
      for (const keyword of ['format', 'enum', ...Object.values(TYPE_KEYWORDS).flat()]) delete node[keyword];
      type = undefined;
    }
  } else if (typeof type === 'string') {
    type = type.toLowerCase();
    if (type === 'null') {
      node['nullable'] = true;
      type = undefined;
    } else if (!GEMINI_TYPES.has(type as string)) {
      report('type', 'invalid-value');
      type = undefined;
    }
  } else {
    report('type', 'invalid-value');
    type = undefined;
  }
  if (type === undefined) delete node['type'];
  else node['type'] = type;
}

/**
 * `anyOf` members that only allow `null` become `nullable`; a single member left is merged into
 * the node (the node's own `description`, `title` and `default` win), so the result has no `anyOf`.
 */
function flattenNullableAnyOf(node: Node, report: Report): void {
  const anyOf = node['anyOf'];
  if (!Array.isArray(anyOf)) return;
  const members = anyOf.filter((member) => !isNullSchema(member));
  if (members.length !== anyOf.length) node['nullable'] = true;
  if (members.length === 0) {
    delete node['anyOf'];
    return;
  }
  node['anyOf'] = members;
  const [only] = members;
  if (members.length !== 1 || !isPlainObject(only)) return;
  delete node['anyOf'];
  for (const [keyword, value] of Object.entries(only)) {
    if (node[keyword] === undefined) node[keyword] = value;
    else if (keyword === 'type' && lowerType(node) !== String(value).toLowerCase()) report('anyOf', 'not-merged');
  }
}

/** `type` next to `anyOf`: the API takes only one. Structure on the node keeps `type`; else `anyOf` wins. */
function resolveTypeAndAnyOf(node: Node, report: Report): void {
  const type = node['type'];
  const anyOf = node['anyOf'];
  if (typeof type !== 'string' || !Array.isArray(anyOf)) return;
  if (['properties', 'items', 'enum', 'format'].some((keyword) => node[keyword] !== undefined)) {
    delete node['anyOf'];
    report('anyOf', 'not-merged');
    return;
  }
  delete node['type'];
  node['anyOf'] = anyOf.map((member) =>
    isPlainObject(member) && member['type'] === undefined && member['$ref'] === undefined ? { type, ...member } : member,
  );
  report('type', 'not-merged');
}

/** `const` and `enum` as Gemini takes them: a non-empty list of strings on a STRING schema. */
function normalizeEnum(node: Node, report: Report): void {
  if (node['const'] !== undefined) {
    const value = node['const'];
    delete node['const'];
    if (value === null) node['nullable'] = true;
    else if (typeof value === 'string' && node['enum'] === undefined) node['enum'] = [value];
    else {
      report('const', 'unsupported-keyword');
      addNote(node, `must be ${formatValue(value)}`);
      if (node['type'] === undefined && (typeof value === 'number' || typeof value === 'boolean'))
        node['type'] = Number.isInteger(value) ? 'integer' : typeof value;
    }
  }
  const values = node['enum'];
  if (values === undefined) return;
  delete node['enum'];
  if (!Array.isArray(values)) {
    report('enum', 'invalid-value');
    return;
  }
  if (values.includes(null)) node['nullable'] = true;
  const kept = values.filter((value) => value !== null);
  if (kept.length === 0) return;
  let type = lowerType(node);
  if (type === undefined && kept.every((value) => typeof value === 'string')) node['type'] = type = 'string';
  if (type === 'string' && kept.every((value) => typeof value === 'string')) {
    node['enum'] = [...new Set(kept)];
    return;
  }
  report('enum', 'unsupported-keyword');
  addNote(node, `one of: ${kept.map(formatValue).join(', ')}`);
  if (type === undefined) {
    if (kept.every((value) => typeof value === 'number'))
      node['type'] = kept.every((value) => Number.isInteger(value)) ? 'integer' : 'number';
    else if (kept.every((value) => typeof value === 'boolean')) node['type'] = 'boolean';
  }
}

/** `exclusiveMinimum`/`exclusiveMaximum` (number or draft-04 boolean form) → `minimum`/`maximum`, exact for integers, with a note otherwise. */
const EXCLUSIVE_BOUNDS = [
  ['exclusiveMinimum', 'minimum', 1, 'greater than'],
  ['exclusiveMaximum', 'maximum', -1, 'less than'],
] as const;

function normalizeExclusiveBounds(node: Node, report: Report): void {
  if (node['exclusiveMinimum'] === undefined && node['exclusiveMaximum'] === undefined) return;
  const integer = lowerType(node) === 'integer';
  for (const [exclusive, bound, sign, word] of EXCLUSIVE_BOUNDS) {
    const value = node[exclusive];
    if (value === undefined) continue;
    delete node[exclusive];
    report(exclusive, 'unsupported-keyword');
    let limit: number | undefined;
    if (typeof value === 'number' && Number.isFinite(value)) limit = value;
    else if (value === true && typeof node[bound] === 'number' && Number.isFinite(node[bound])) {
      limit = node[bound] as number;
      delete node[bound];
    }
    if (limit === undefined) continue;
    const existing = node[bound];
    if (typeof existing === 'number' && (sign === 1 ? existing > limit : existing < limit)) continue;
    if (integer) node[bound] = sign === 1 ? Math.floor(limit) + 1 : Math.ceil(limit) - 1;
    else {
      node[bound] = limit;
      addNote(node, `${word} ${limit}`);
    }
  }
}

/** A `format` the API rejects for the node's type is dropped and kept as a note. */
function normalizeFormat(node: Node, report: Report): void {
  const format = node['format'];
  if (format === undefined) return;
  const type = lowerType(node);
  if (typeof format === 'string' && type !== undefined && (GEMINI_FORMATS[type] ?? []).includes(format)) return;
  delete node['format'];
  report('format', 'unsupported-format');
  if (typeof format === 'string' && format !== '' && format !== 'enum') addNote(node, `format: ${format}`);
}

/** Draft-07 tuple `items` (a list): one member becomes `items`; more cannot be expressed. */
function normalizeItems(node: Node, report: Report): void {
  const items = node['items'];
  if (!Array.isArray(items)) return;
  if (items.length === 1) node['items'] = items[0];
  else {
    delete node['items'];
    report('items', 'unsupported-keyword');
  }
}

function keepStrings(node: Node, keyword: string, report: Report): void {
  const value = node[keyword];
  if (value === undefined) return;
  if (!Array.isArray(value)) {
    delete node[keyword];
    report(keyword, 'invalid-value');
    return;
  }
  const strings = [...new Set(value.filter((item): item is string => typeof item === 'string'))];
  if (strings.length !== value.length) report(keyword, 'invalid-value');
  node[keyword] = strings;
}

/** Whether a field's value has the shape the API's `Schema` gives it. */
function validValue(keyword: string, value: unknown): boolean {
  if (COUNT_FIELDS.has(keyword)) {
    const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
    return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0;
  }
  switch (keyword) {
    case 'minimum':
    case 'maximum':
      return typeof value === 'number' && Number.isFinite(value);
    case 'description':
    case 'title':
    case 'pattern':
    case 'format':
      return typeof value === 'string';
    case 'nullable':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

/** Keep only names of properties that were kept (`required`, `propertyOrdering`). */
function keepPropertyNames(out: Node, keyword: string, names: ReadonlySet<string>, report: Report): void {
  const value = out[keyword];
  if (!Array.isArray(value)) return;
  const kept = value.filter((name) => typeof name === 'string' && names.has(name));
  if (kept.length !== value.length) report(keyword, 'invalid-value');
  if (kept.length > 0) out[keyword] = kept;
  else delete out[keyword];
}

/**
 * `gemini` restricted to what the API accepts in `FunctionDeclaration.parameters` (see
 * `geminiSchemaFieldsOnly` of `sanitizeSchema`).
 */
export const GEMINI_FIELDS_ONLY_RULES: ProfileRules = {
  ...GEMINI_RULES,
  keyword(keyword, node, value) {
    const seeds = GEMINI_RULES.keyword(keyword, node, value);
    if (seeds !== true) return seeds;
    if (!GEMINI_SCHEMA_FIELDS.has(keyword)) return 'unsupported-keyword';
    if (!validValue(keyword, value)) return 'invalid-value';
    return true;
  },
  prepare(input, root, report) {
    let node: Node = input['allOf'] === undefined ? { ...input } : mergeAllOf(input, root, report);
    if (node['oneOf'] !== undefined) {
      const { oneOf, ...rest } = node;
      if (rest['anyOf'] === undefined) node = { ...rest, anyOf: oneOf };
      else {
        report('oneOf', 'not-merged');
        node = rest;
      }
    }
    if (Array.isArray(node['anyOf']) && node['anyOf'].length === 0) delete node['anyOf'];
    normalizeType(node, report);
    flattenNullableAnyOf(node, report);
    normalizeType(node, report);
    resolveTypeAndAnyOf(node, report);
    normalizeEnum(node, report);
    normalizeExclusiveBounds(node, report);
    normalizeFormat(node, report);
    normalizeItems(node, report);
    if (Array.isArray(node['examples']) && node['examples'].length > 0 && node['example'] === undefined) {
      node['example'] = node['examples'][0];
      delete node['examples'];
    }
    keepStrings(node, 'required', report);
    keepStrings(node, 'propertyOrdering', report);
    return node;
  },
  finish(out, _node, info) {
    if (out['required'] === undefined && out['propertyOrdering'] === undefined) return;
    const names = new Set(info.propertyKeys ?? []);
    keepPropertyNames(out, 'required', names, info.report);
    keepPropertyNames(out, 'propertyOrdering', names, info.report);
  },
};
