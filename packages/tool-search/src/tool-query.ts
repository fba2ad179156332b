import { invalid } from './check-tools.js';
import type { ToolSearchRequest } from './tool-ranker.js';
import { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';

/** A request after its checks: the bounded query, the names it selects, the limit. */
export interface ToolQuery {
  /** The query, trimmed, at most `maxQueryChars` characters. */
  readonly text: string;
  /** For `select:a,b`: the names listed (at most `maxSelectNames`); otherwise undefined. */
  readonly select: readonly string[] | undefined;
  /** Names the query may be asking for: the whole query, then identifier-like words in it. */
  readonly names: readonly string[];
  /** The checked limit, lowered to `maxLimit`. */
  readonly limit: number;
}

const SELECT = /^select:/i;
// An identifier in a sentence: has `_`, `-`, `.` or `/` between letters or digits, or a lower-case
// letter followed by a capital (`getFileContents`). "search" alone is a word, not a tool name.
const IDENTIFIER = /[\p{L}\p{N}][_.\-/][\p{L}\p{N}]|\p{Ll}\p{Lu}/u;
const EDGE_PUNCTUATION = /^[\s"'`([{<]+|[\s"'`)\]}>,;:!?.]+$/gu;

/**
 * Checks a request and reads its query. Throws a ToolSearchError (`INVALID_OPTIONS`) when the
 * query is not a string or is empty, or the limit is not a whole number of at least 1; the
 * message says how to ask, so a host can hand it to the model.
 */
export function parseToolQuery(request: ToolSearchRequest): ToolQuery {
  if (typeof request !== 'object' || request === null) throw invalid('the request must be an object { query, limit? }');
  const { query, limit } = request;
  if (typeof query !== 'string') throw invalid(`the query must be a string, got ${query === null ? 'null' : typeof query}`);
  const text = query.slice(0, TOOL_SEARCH_LIMITS.maxQueryChars).trim();
  if (text === '') {
    throw invalid(
      "the query is empty: say in a few words what the tool should do (for example 'read a file' or 'create a GitHub issue'), " +
        "or select tools by name with 'select:name_a,name_b'",
    );
  }
  const checkedLimit = checkLimit(limit);
  if (SELECT.test(text)) {
    const select = splitSelect(text.replace(SELECT, ''));
    return { text, select, names: select, limit: checkedLimit };
  }
  return { text, select: undefined, names: nameCandidates(text), limit: checkedLimit };
}

function checkLimit(limit: unknown): number {
  if (limit === undefined) return TOOL_SEARCH_LIMITS.defaultLimit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw invalid(`the limit must be a whole number of at least 1, got ${typeof limit === 'number' ? String(limit) : typeof limit}`);
  }
  return Math.min(limit, TOOL_SEARCH_LIMITS.maxLimit);
}

/** The names of a `select:` list: split at commas (and whitespace), trimmed, each once, bounded. */
function splitSelect(list: string): string[] {
  const names: string[] = [];
  for (const part of list.split(/[,\s]+/)) {
    const name = part.replace(EDGE_PUNCTUATION, '');
    if (name !== '' && !names.includes(name)) names.push(name);
    if (names.length >= TOOL_SEARCH_LIMITS.maxSelectNames) break;
  }
  return names;
}

/** The whole query, then each identifier-like word of it (`read_file`, `github__create_issue`). */
function nameCandidates(text: string): string[] {
  const names = [text];
  for (const part of text.split(/[\s,;]+/)) {
    const word = part.replace(EDGE_PUNCTUATION, '');
    if (word !== '' && IDENTIFIER.test(word) && !names.includes(word)) names.push(word);
    if (names.length > TOOL_SEARCH_LIMITS.maxSelectNames) break;
  }
  return names;
}
