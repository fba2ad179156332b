import { escapeControlText } from '@toolhost/contract';
import { formatCount } from './format-count.js';
import { ResultBudgetError } from './result-budget-error.js';
import type { ResultStore } from './result-store.js';
import { DEFAULT_PAGE_LENGTH, READ_TOOL_RESULT_TOOL_NAME } from './shorten-result.js';
import { splitsSurrogatePair } from './unicode-boundary.js';

/** The longest page {@link readStoredResult} returns, whatever `length` asks for. */
export const MAX_PAGE_LENGTH = 200_000;

/** What the model-facing `read_tool_result` tool tells the model it does. */
export const READ_TOOL_RESULT_DESCRIPTION =
  'Read part of a tool result that was too large to show whole. When a result was shortened, its note gives the id ' +
  'of the full result; call this with that id and an offset (0 for the start) to get up to `length` characters of ' +
  'its text, and the offset where the next part starts.';

/** The JSON Schema of the `read_tool_result` tool's arguments (what {@link readStoredResult} accepts). */
export const READ_TOOL_RESULT_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string', description: 'The id of the stored result, as the note of the shortened result gave it.' },
    offset: { type: 'integer', minimum: 0, description: 'Where to start, in characters of the full text. 0 for the start.' },
    length: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LENGTH, description: 'How many characters to read (40,000 when left out).' },
  },
  required: ['id'],
  additionalProperties: false,
} as const;

/** What to read: the arguments of the model-facing `read_tool_result` tool. */
export interface ReadStoredResultRequest {
  /** The id the note of a shortened result gave. */
  readonly id: unknown;
  /** Where to start, in characters (UTF-16 code units) of the full text. @default 0 */
  readonly offset?: unknown;
  /** How many characters to read, at most `maxLength`. @default DEFAULT_PAGE_LENGTH */
  readonly length?: unknown;
}

/** Options of {@link readStoredResult}. */
export interface ReadStoredResultOptions {
  /** The longest page, in characters. @default MAX_PAGE_LENGTH */
  readonly maxLength?: number | undefined;
  /** The page length when the request gives none. @default DEFAULT_PAGE_LENGTH */
  readonly defaultLength?: number | undefined;
}

/** One page of a stored result's full text. */
export interface StoredResultPage {
  /** The result's id. */
  readonly id: string;
  /** The page's text. */
  readonly text: string;
  /** Where the page starts (the requested offset, moved back one when it fell inside a surrogate pair). */
  readonly offset: number;
  /** Where the next page starts; absent on the last page. */
  readonly nextOffset?: number;
  /** Characters of the whole text. */
  readonly totalLength: number;
}

/** The model's id, safe to quote back: escaped and cut (it may be anything the model wrote). */
function quoteId(id: unknown): string {
  return JSON.stringify(escapeControlText(typeof id === 'string' ? id : String(id), { maxLength: 80 }));
}

function wholeNumber(name: string, value: unknown, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new ResultBudgetError({
      code: 'INVALID_TOOL_ARGUMENTS',
      message: `${READ_TOOL_RESULT_TOOL_NAME}: "${name}" must be a whole number of 0 or more; got ${escapeControlText(JSON.stringify(value) ?? String(value), { maxLength: 40 })}.`,
    });
  }
  return value;
}

/**
 * Read one page of a stored full result: `length` characters (UTF-16 code units) of its text from
 * `offset`, the page never ending or starting inside a surrogate pair, `length` bounded by
 * `maxLength`; `nextOffset` says where the next page starts, and is absent on the last one. An
 * offset past the end gives an empty last page. Reading every page from 0 to the end gives back
 * the full text exactly.
 *
 * Rejects with `RESULT_NOT_FOUND` for an id that is unknown, expired or evicted (its message tells
 * the model to call the tool again), and `INVALID_TOOL_ARGUMENTS` for an `offset` or `length` that
 * is not a whole number of 0 or more. Both messages are safe to hand back to the model.
 *
 * @example
 * ```ts
 * let page = await readStoredResult(store, { id, offset: 0, length: 40_000 });
 * while (page.nextOffset !== undefined) page = await readStoredResult(store, { id, offset: page.nextOffset });
 * ```
 */
export async function readStoredResult(
  store: ResultStore,
  request: ReadStoredResultRequest,
  options: ReadStoredResultOptions = {},
): Promise<StoredResultPage> {
  const maxLength = Math.max(2, Math.floor(options.maxLength ?? MAX_PAGE_LENGTH));
  const requested = wholeNumber('length', request.length, options.defaultLength ?? DEFAULT_PAGE_LENGTH);
  const offsetAsked = wholeNumber('offset', request.offset, 0);
  const stored = typeof request.id === 'string' ? await store.get(request.id) : undefined;
  if (stored === undefined) {
    throw new ResultBudgetError({
      code: 'RESULT_NOT_FOUND',
      message:
        `No stored tool result has the id ${quoteId(request.id)}: it expired, was removed to make room for newer results, ` +
        `or the id is not one a shortened result gave. Call the tool again to get a fresh result.`,
    });
  }
  const text = stored.text;
  const totalLength = text.length;
  let offset = Math.min(offsetAsked, totalLength);
  if (splitsSurrogatePair(text, offset)) offset--;
  const length = Math.min(Math.max(1, requested), maxLength);
  let end = Math.min(totalLength, offset + length);
  // Never end between the halves of a pair; a page of one character that is half a pair takes the pair.
  if (splitsSurrogatePair(text, end)) end = end - 1 > offset ? end - 1 : end + 1;
  return {
    id: stored.id,
    text: text.slice(offset, end),
    offset,
    ...(end < totalLength ? { nextOffset: end } : {}),
    totalLength,
  };
}

/**
 * One line for the model about a page, to put after its text: where it sits and where the next
 * one starts (offsets written plainly, so the model can pass them back as they are).
 *
 * @example
 * ```ts
 * describePage(page); // '[characters 0 to 40000 of 5242880 (5,242,880); the next page starts at offset 40000]'
 * ```
 */
export function describePage(page: StoredResultPage): string {
  const end = page.offset + page.text.length;
  return `[characters ${page.offset} to ${end} of ${page.totalLength} (${formatCount(page.totalLength)}); ${
    page.nextOffset === undefined ? 'this is the last page' : `the next page starts at offset ${page.nextOffset}`
  }]`;
}
