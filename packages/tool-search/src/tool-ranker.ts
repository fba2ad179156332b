import type { ToolSearchEntry } from './tool-search-entry.js';

/** A search for tools: what the model (or the user) asked for, and how many answers at most. */
export interface ToolSearchRequest {
  /**
   * What the tool should do, in words ("bump the PR branch"), a tool's name (`read_file`,
   * `github__create_issue`) or a selection by name (`select:read_file,write_file`).
   */
  readonly query: string;
  /**
   * How many tools to return at most; default {@link TOOL_SEARCH_LIMITS}.defaultLimit (5),
   * at most {@link TOOL_SEARCH_LIMITS}.maxLimit (50).
   */
  readonly limit?: number | undefined;
}

/** One tool found, best first in a result list. */
export interface ToolSearchResult {
  /** The name the model knows the tool by (the entry's `name`). */
  readonly name: string;
  /** The server that offers it. */
  readonly serverName: string;
  /** Its name on that server. */
  readonly toolName: string;
  /**
   * How well it matches, higher is better. Scores compare tools within one result list only.
   * The built-in ranker gives 1 to a tool asked for by name and to the best match, and the
   * others their share of the best match's score.
   */
  readonly score: number;
}

/** A tool a ranker chose and how well it matches (higher is better). */
export interface RankedTool {
  /** The entry's `name`; a name the index does not hold is ignored. */
  readonly name: string;
  /** A finite number, higher is better; comparable within one answer only. */
  readonly score: number;
}

/**
 * Ranks the tools it was built over for a request. The built-in {@link ToolIndex} is one;
 * an application plugs in its own (embeddings it computes, a hybrid) through
 * {@link ToolRankerFactory}. It may answer synchronously or with a promise: a host awaits it when
 * the model calls `search_tools`.
 *
 * A ranker sees the request with `limit` already checked and bounded, and only for the part of a
 * query that names no tool: {@link ToolSearch} resolves tool names and `select:` itself, checks
 * what the ranker returns (known names, finite scores, no repeats) and orders it deterministically.
 */
export interface ToolRanker {
  /** The best tools for `request.query`, at most `request.limit` of them, in any order. */
  rank(request: Required<ToolSearchRequest>): readonly RankedTool[] | PromiseLike<readonly RankedTool[]>;
}

/**
 * Builds a {@link ToolRanker} over a set of tools. Called again whenever the set changes (a
 * server connected, a tool list changed), so a ranker may precompute what it needs (an index,
 * embeddings) once per set.
 */
export type ToolRankerFactory = (tools: readonly ToolSearchEntry[]) => ToolRanker;
