import { ToolIndex, type ToolIndexOptions } from './tool-index.js';
import type { ToolSearchInput } from './tool-search-entry.js';

/**
 * Build the built-in tool index over `tools`: the host's tool definitions
 * (`host.servers.listTools()`) or {@link ToolSearchEntry} objects. Its `search({ query, limit })`
 * answers the best tools first as `{ name, serverName, toolName, score }`, synchronously, offline
 * and deterministically; it is also a {@link ToolRanker} for {@link ToolSearch}. Building reads every tool's bounded text
 * once (under a millisecond per tool): build a new index when the tools change, not per search.
 *
 * Throws a {@link ToolSearchError} (`INVALID_OPTIONS`) when an entry lacks a name, server name or
 * tool name, two entries share a name, or a field weight is not a finite number of at least 0.
 *
 * @example
 * ```ts
 * const index = createToolIndex(host.servers.listTools());
 * for (const tool of index.search({ query: 'bump the PR branch', limit: 5 })) {
 *   console.log(`${tool.name} (${tool.serverName}) ${tool.score.toFixed(2)}`);
 * }
 * ```
 */
export function createToolIndex(tools: readonly ToolSearchInput[], options: ToolIndexOptions = {}): ToolIndex {
  return new ToolIndex(tools, options);
}
