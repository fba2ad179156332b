import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const TOOL_SEARCH_ERROR_CODES = ['INVALID_OPTIONS'] as const satisfies readonly ErrorCode[];

/**
 * Stable codes of {@link ToolSearchError} (each explained in the contract's `ERROR_CODES`);
 * match on these, never on message text:
 * - `INVALID_OPTIONS`: the tools given to an index, a search request (an empty query, a bad
 *   `limit`) or what a plugged-in ranker returned cannot be used; the message says which and why.
 */
export type ToolSearchErrorCode = (typeof TOOL_SEARCH_ERROR_CODES)[number];

/**
 * The error of `@toolhost/tool-search` (family `tool-search`). Its message is written so a host
 * can hand it to the model as the answer of a `search_tools` call (an empty query says how to ask).
 *
 * @example
 * ```ts
 * if (ToolSearchError.isInstance(e) && e.code === 'INVALID_OPTIONS') return { isError: true, text: e.message };
 * ```
 */
export class ToolSearchError extends ToolhostError<ToolSearchErrorCode> {
  /** The family of these errors: `tool-search`. */
  static override readonly family = 'tool-search';
  /** The codes a `ToolSearchError` can carry. */
  static override readonly codes = TOOL_SEARCH_ERROR_CODES;

  /** Create an error; `message` says what happened and what the caller can do. */
  constructor(options: ToolhostErrorOptions<ToolSearchErrorCode>) {
    super(options);
  }
}
