import type { ToolSearchEntry } from './tool-search-entry.js';
import { splitWords } from './split-words.js';
import { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';

/** A server needs this many tools before a first word they share is taken as its prefix. */
const MIN_TOOLS = 3;
/** The share of a server's tools whose names must start with the word. */
const MIN_SHARE = 0.75;

/**
 * Per server, the first word most of its tool names share (`browser` of `browser_click`,
 * `browser_navigate`; `api` of Notion's `API-get-user`; `firecrawl` of `firecrawl_scrape`).
 * Such a word names the server, not what a tool does: kept in a tool's name it makes every tool of
 * the server match a request that says it ("which API calls did the page make"), so the index
 * counts it as a word of the server instead. Keys are server names (a Map: any name is safe).
 */
export function sharedNamePrefixes(tools: Iterable<ToolSearchEntry>): Map<string, string> {
  const firstWords = new Map<string, Map<string, number>>();
  const counts = new Map<string, number>();
  for (const tool of tools) {
    counts.set(tool.serverName, (counts.get(tool.serverName) ?? 0) + 1);
    const [first, second] = splitWords(tool.toolName, TOOL_SEARCH_LIMITS.maxNameChars);
    // A one-word name keeps its word: `click` is what the tool does.
    if (first === undefined || second === undefined) continue;
    const words = firstWords.get(tool.serverName) ?? new Map<string, number>();
    words.set(first, (words.get(first) ?? 0) + 1);
    firstWords.set(tool.serverName, words);
  }
  const prefixes = new Map<string, string>();
  for (const [server, words] of firstWords) {
    const total = counts.get(server) ?? 0;
    if (total < MIN_TOOLS) continue;
    for (const [word, count] of words) if (count / total >= MIN_SHARE) prefixes.set(server, word);
  }
  return prefixes;
}
