import { readFileSync } from 'node:fs';
import { assignToolNames } from '@toolhost/schema-sanitizer';
import { createToolIndex, type ToolSearchEntry } from '@toolhost/tool-search';
import MiniSearch from 'minisearch';
import type { CorpusTool, SchemaCorpus } from './schema-corpus.js';

/** One request of the query set with the tools that answer it. */
export interface ToolSearchQuery {
  /** Stable id (`q001`); its last digit decides the split ({@link isHeldOut}). */
  readonly id: string;
  /** The request, as a user would say it. */
  readonly query: string;
  /** Tools that answer it, as `server/tool`; finding any one of them counts. */
  readonly expected: readonly string[];
}

/** `corpus/tool-search-queries.json`. */
export interface ToolSearchQuerySet {
  readonly description: string;
  readonly heldOut: string;
  readonly queries: readonly ToolSearchQuery[];
}

/** Where the query set is (the same relative path from `src/` and from `dist/`). */
export const TOOL_SEARCH_QUERIES_URL = new URL('../corpus/tool-search-queries.json', import.meta.url);

/** The checked-in query set. */
export function loadToolSearchQueries(): ToolSearchQuerySet {
  return JSON.parse(readFileSync(TOOL_SEARCH_QUERIES_URL, 'utf8')) as ToolSearchQuerySet;
}

/**
 * Whether a query is held out: never looked at while tuning a ranker, reported apart. The split
 * is fixed by id: ids ending in 3, 6 or 9 (30 % of a numbered set).
 */
export function isHeldOut(id: string): boolean {
  return /[369]$/.test(id);
}

/** A ranker under evaluation: the tools it finds for a request, best first, as `server/tool`. */
export type RankTools = (query: string) => readonly string[] | Promise<readonly string[]>;

/** Answers past this position are not read: a tool found lower counts as not found (also for MRR). */
export const RANKING_DEPTH = 50;

/** A query no expected tool of which was in the top k. */
export interface RecallMiss {
  readonly id: string;
  readonly query: string;
  readonly expected: readonly string[];
  /** What the ranker answered first (its top 5). */
  readonly found: readonly string[];
  /** The best (1-based) position of an expected tool in the answer; undefined when none is in its first {@link RANKING_DEPTH}. */
  readonly rank: number | undefined;
}

/** How well one ranker did over a set of queries. */
export interface RecallReport {
  /** How many queries were asked. */
  readonly queries: number;
  /** For each k measured: the share of queries with an expected tool in the top k (0 when there are no queries). */
  readonly recall: Readonly<Record<number, number>>;
  /** Mean reciprocal rank: the mean over queries of 1 / the position of the first expected tool (0 when none is in the first {@link RANKING_DEPTH}). */
  readonly mrr: number;
  /** Queries that missed at the largest k, in query order. */
  readonly misses: readonly RecallMiss[];
}

/**
 * Recall@k of `rank` over `queries` for each k of `ks`, and its mean reciprocal rank: a query
 * counts at k when any of its expected tools is among the first k answers. Answers past
 * {@link RANKING_DEPTH} are not read.
 */
export async function measureRecall(
  queries: readonly ToolSearchQuery[],
  rank: RankTools,
  ks: readonly number[] = [1, 5],
): Promise<RecallReport> {
  const maxK = Math.max(...ks);
  const hits = new Map<number, number>(ks.map((k) => [k, 0]));
  const misses: RecallMiss[] = [];
  let reciprocal = 0;
  for (const query of queries) {
    const found = (await rank(query.query)).slice(0, RANKING_DEPTH);
    const index = found.findIndex((tool) => query.expected.includes(tool));
    for (const k of ks) if (index >= 0 && index < k) hits.set(k, (hits.get(k) ?? 0) + 1);
    if (index >= 0) reciprocal += 1 / (index + 1);
    if (index < 0 || index >= maxK) {
      misses.push({
        id: query.id,
        query: query.query,
        expected: query.expected,
        found: found.slice(0, 5),
        rank: index < 0 ? undefined : index + 1,
      });
    }
  }
  const recall: Record<number, number> = {};
  for (const k of ks) recall[k] = queries.length === 0 ? 0 : (hits.get(k) ?? 0) / queries.length;
  return { queries: queries.length, recall, mrr: queries.length === 0 ? 0 : reciprocal / queries.length, misses };
}

/** A corpus tool as a search entry, with its `server/tool` id. */
export interface CorpusEntry {
  readonly id: string;
  readonly entry: ToolSearchEntry;
}

/**
 * The corpus as a host would index it: model-facing names as toolhost assigns them (the bare
 * name where it is unique, else `server__tool`), the tool's title, description, input schema and
 * annotations, as the server listed them.
 */
export function corpusEntries(corpus: SchemaCorpus): CorpusEntry[] {
  return entriesOf(corpus.tools);
}

/**
 * `count` tools for timing: the corpus, then copies of it whose servers are renamed
 * (`github-2`, `notion-2`...), as a host with many servers of the same kinds would hold them.
 */
export function scaledCorpusEntries(corpus: SchemaCorpus, count: number): CorpusEntry[] {
  const tools: CorpusTool[] = [];
  for (let copy = 1; tools.length < count; copy += 1) {
    for (const tool of corpus.tools.slice(0, count - tools.length))
      tools.push(copy === 1 ? tool : { ...tool, server: `${tool.server}-${copy}` });
  }
  return entriesOf(tools);
}

function entriesOf(tools: readonly CorpusTool[]): CorpusEntry[] {
  const { names } = assignToolNames(tools.map((tool) => ({ serverName: tool.server, toolName: tool.name })));
  return tools.map((tool, index) => ({
    id: `${tool.server}/${tool.name}`,
    entry: {
      name: (names[index] as { registeredName: string }).registeredName,
      serverName: tool.server,
      toolName: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      ...(tool.description === undefined ? {} : { description: tool.description }),
      inputSchema: tool.inputSchema,
      ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
    },
  }));
}

/** The ranker of `@toolhost/tool-search` (`createToolIndex` with its defaults) over `entries`. */
export function toolIndexRanker(entries: readonly CorpusEntry[]): RankTools {
  const index = createToolIndex(entries.map(({ entry }) => entry));
  const ids = new Map(entries.map(({ id, entry }) => [entry.name, id]));
  return (query) => index.search({ query, limit: RANKING_DEPTH }).map((result) => ids.get(result.name) as string);
}

/**
 * The baseline: plain BM25 (MiniSearch's BM25+ with its default tokenizer, which splits at
 * spaces and punctuation including `_` and `-`, and lower-cases) over each tool's name and
 * description only: no stemming, no synonyms, no parameters, no camelCase splitting.
 */
export function plainBm25(entries: readonly CorpusEntry[]): RankTools {
  const index = new MiniSearch<{ id: number; name: string; description: string }>({ fields: ['name', 'description'] });
  index.addAll(entries.map(({ entry }, id) => ({ id, name: entry.toolName, description: entry.description ?? '' })));
  return (query) =>
    index
      .search(query)
      .slice(0, RANKING_DEPTH)
      .map((result) => (entries[result.id as number] as CorpusEntry).id);
}
