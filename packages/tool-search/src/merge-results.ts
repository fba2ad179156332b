import { invalid } from './check-tools.js';
import { compareStrings } from './text-analyzer.js';
import type { RankedTool, ToolSearchResult } from './tool-ranker.js';
import type { ToolSearchEntry } from './tool-search-entry.js';
import type { ToolQuery } from './tool-query.js';
import { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';

/**
 * The answer to a query: the tools it names first (score 1, in the order named), then what the
 * ranker found, best first with ties in name order, each score divided by the best one (so in
 * (0, 1]). A `select:` query answers only the tools it names (up to `maxLimit`), a text query at
 * most `query.limit` tools. What the ranker returned is checked: it must be an array; entries
 * with a name the index does not hold, a score that is not a finite number above 0, or a name
 * seen before are skipped.
 */
export function mergeResults(
  query: ToolQuery,
  named: readonly string[],
  ranked: unknown,
  tools: ReadonlyMap<string, ToolSearchEntry>,
): ToolSearchResult[] {
  const results: ToolSearchResult[] = [];
  const taken = new Set<string>();
  const push = (name: string, score: number): void => {
    const tool = tools.get(name) as ToolSearchEntry;
    taken.add(name);
    results.push({ name, serverName: tool.serverName, toolName: tool.toolName, score });
  };
  if (query.select !== undefined) {
    for (const name of named.slice(0, TOOL_SEARCH_LIMITS.maxLimit)) push(name, 1);
    return results;
  }
  for (const name of named.slice(0, query.limit)) push(name, 1);
  if (!Array.isArray(ranked)) throw invalid(`the ranker must return an array of { name, score }, got ${typeof ranked}`);
  const usable: RankedTool[] = [];
  const seen = new Set<string>();
  for (const entry of ranked as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { name, score } = entry as Record<string, unknown>;
    if (typeof name !== 'string' || !tools.has(name) || seen.has(name)) continue;
    if (typeof score !== 'number' || !Number.isFinite(score) || score <= 0) continue;
    seen.add(name);
    if (!taken.has(name)) usable.push({ name, score });
  }
  usable.sort((a, b) => b.score - a.score || compareStrings(a.name, b.name));
  const best = usable[0]?.score ?? 1;
  for (const { name, score } of usable) {
    if (results.length >= query.limit) break;
    push(name, score / best);
  }
  return results;
}
