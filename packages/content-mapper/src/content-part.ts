import type { ContentPart } from '@toolhost/contract';

/**
 * The parts of an MCP `CallToolResult` this package reads. Structural, so results from any
 * version of the MCP SDK (or from JSON) fit; unknown fields are ignored.
 */
export interface CallToolResultLike {
  /** The content blocks (`text`, `image`, `audio`, `resource`, `resource_link`, or newer types). */
  readonly content?: unknown;
  /** True when the tool reports a failure (`'true'` is accepted too, as Gemini CLI does). */
  readonly isError?: unknown;
  /** Machine-readable result matching the tool's `outputSchema`. */
  readonly structuredContent?: unknown;
  /** Legacy (protocol 2024-10-07) result field. */
  readonly toolResult?: unknown;
}

/** What {@link mapCallToolResult} returns. */
export interface MappedToolResult {
  /** For the model: all text combined into one text part first, then one inline-data part per image, audio or blob. */
  readonly llmParts: ContentPart[];
  /** A short, single-line-friendly summary for the user (`Here is the logo. [Image: image/png] ...`). */
  readonly display: string;
  /** True when the server flagged the result as an error, or the result could not be read. */
  readonly isError: boolean;
  /** The server's `structuredContent`, when it sent an object. */
  readonly structuredContent?: Record<string, unknown>;
  /** How many content blocks were skipped (unknown type or malformed). */
  readonly skipped: number;
  /** The `type` of each skipped block, in order (`'(invalid)'` when it had none). */
  readonly skippedTypes: readonly string[];
}
