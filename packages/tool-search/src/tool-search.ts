import { checkTools } from './check-tools.js';
import { mergeResults } from './merge-results.js';
import { ToolIndex } from './tool-index.js';
import { ToolNameMatcher } from './tool-name-matcher.js';
import { parseToolQuery } from './tool-query.js';
import type { ToolRanker, ToolRankerFactory, ToolSearchRequest, ToolSearchResult } from './tool-ranker.js';
import type { ToolSearchEntry, ToolSearchInput } from './tool-search-entry.js';

/** Options of a {@link ToolSearch}. */
export interface ToolSearchOptions {
  /**
   * Builds the ranker over the tools; default: the built-in {@link ToolIndex} with its defaults.
   * Plug in your own (embeddings your application computes, a hybrid with the built-in index).
   */
  readonly ranker?: ToolRankerFactory | undefined;
}

/**
 * Tool search over one set of tools with a pluggable ranker: what a host runs when the model
 * calls `search_tools`. Build a new one when the set of tools changes.
 *
 * A search answers, best first:
 * 1. the tools the query names: the whole query or an identifier in it that is a tool's name
 *    (`read_file`), the same in another case, `server__tool`, or a tool's own name on its
 *    server; they score 1;
 * 2. then the ranker's matches for the query (unless `limit` is already reached), each score
 *    divided by the best one, ties in name order, tools already named left out.
 *
 * `select:a,b,c` (as in Claude Code) answers exactly the tools listed that exist, in that order,
 * up to `maxLimit` whatever the limit. An empty query or a bad limit throws a
 * {@link ToolSearchError} (`INVALID_OPTIONS`) whose message tells the model how to ask; a query
 * that matches nothing answers `[]`.
 *
 * @example
 * ```ts
 * const search = new ToolSearch(tools, { ranker: (tools) => new EmbeddingRanker(tools) });
 * const found = await search.search({ query: 'take a picture of the page', limit: 5 });
 * found.map((tool) => `${tool.name} ${tool.score.toFixed(2)}`);
 * ```
 */
export class ToolSearch {
  readonly #tools: ReadonlyMap<string, ToolSearchEntry>;
  readonly #matcher: ToolNameMatcher;
  readonly #ranker: ToolRanker;

  /**
   * Prepare a search over `tools` (the ranker is built now). Throws a {@link ToolSearchError}
   * (`INVALID_OPTIONS`) when an entry lacks a name, server name or tool name, or two share a name.
   */
  constructor(tools: readonly ToolSearchInput[], options: ToolSearchOptions = {}) {
    this.#tools = checkTools(tools);
    this.#matcher = new ToolNameMatcher(this.#tools);
    const entries = [...this.#tools.values()];
    this.#ranker = options.ranker === undefined ? new ToolIndex(entries) : options.ranker(entries);
  }

  /** The tools searched, in the order given. */
  get tools(): readonly ToolSearchEntry[] {
    return [...this.#tools.values()];
  }

  /**
   * The best tools for `request`, at most `request.limit` (default 5, at most 50). Rejects with
   * a {@link ToolSearchError} (`INVALID_OPTIONS`) for an empty query, a bad limit, or a ranker
   * that does not return an array; whatever the ranker throws is passed on unchanged.
   */
  async search(request: ToolSearchRequest): Promise<ToolSearchResult[]> {
    const query = parseToolQuery(request);
    const named = this.#matcher.match(query.names);
    const ranked = query.select === undefined ? await this.#ranker.rank({ query: query.text, limit: query.limit + named.length }) : [];
    return mergeResults(query, named, ranked, this.#tools);
  }
}
