import { performance } from 'node:perf_hooks';
import { median, percentile } from './summarize.js';
import { loadSchemaCorpus } from './schema-corpus.js';
import {
  corpusEntries,
  isHeldOut,
  loadToolSearchQueries,
  measureRecall,
  plainBm25,
  scaledCorpusEntries,
  toolIndexRanker,
  type CorpusEntry,
  type RankTools,
  type RecallReport,
  type ToolSearchQuery,
} from './tool-search-eval.js';

/** The rankers compared: `@toolhost/tool-search`'s index, and plain BM25 over names and descriptions. */
export const TOOL_SEARCH_RANKERS = {
  'tool-search': toolIndexRanker,
  'plain BM25': plainBm25,
} as const satisfies Record<string, (entries: readonly CorpusEntry[]) => RankTools>;

/** A ranker's name in the report. */
export type ToolSearchRankerName = keyof typeof TOOL_SEARCH_RANKERS;

/** The query sets reported: every query, the ones a ranker may be tuned on, the held-out ones. */
export type ToolSearchQuerySetName = 'all' | 'tuning' | 'held-out';

/** One ranker on one query set. */
export interface ToolSearchQuality extends RecallReport {
  readonly set: ToolSearchQuerySetName;
  readonly ranker: ToolSearchRankerName;
}

/** What building an index over `tools` tools and searching it cost, per ranker (medians over repetitions). */
export interface ToolSearchTiming {
  readonly ranker: ToolSearchRankerName;
  /** Tools indexed. */
  readonly tools: number;
  /** Median time to build the index, in milliseconds. */
  readonly buildMs: number;
  /** Median time of one search, in microseconds. */
  readonly searchMedianUs: number;
  /** 99th percentile of one search, in microseconds. */
  readonly searchP99Us: number;
}

/** A goal the benchmark checks, and how it went. */
export interface ToolSearchGoal {
  readonly name: string;
  readonly pass: boolean;
  readonly detail: string;
}

/** The whole report of `pnpm bench:tool-search`. */
export interface ToolSearchBenchReport {
  readonly corpus: { readonly tools: number; readonly servers: number };
  readonly quality: readonly ToolSearchQuality[];
  readonly timing: readonly ToolSearchTiming[];
  readonly goals: readonly ToolSearchGoal[];
}

/** Options of {@link runToolSearchBench}. */
export interface ToolSearchBenchOptions {
  /** Repetitions of the timing runs. @default 10 */
  readonly repetitions?: number;
  /** Tools in the timing runs. @default 500 */
  readonly timingTools?: number;
  /** Queries to ask (default: the checked-in query set). */
  readonly queries?: readonly ToolSearchQuery[];
}

/** recall@5 the built-in ranker must reach on every query. */
export const RECALL_AT_5_GOAL = 0.9;
/** How far above plain BM25 it must be on the held-out queries, in recall@5 and MRR. */
export const MARGIN_OVER_BM25 = 0.1;

/**
 * Measures both rankers on the query set (recall@1, recall@5, MRR; all queries, the tuning ones,
 * the held-out ones) over the 208-tool corpus, times index builds and searches over
 * `timingTools` tools, and checks the goals: recall@5 at least {@link RECALL_AT_5_GOAL} on all
 * queries, and at least {@link MARGIN_OVER_BM25} above plain BM25 in recall@5 and MRR on the
 * held-out ones.
 */
export async function runToolSearchBench(options: ToolSearchBenchOptions = {}): Promise<ToolSearchBenchReport> {
  const corpus = loadSchemaCorpus();
  const entries = corpusEntries(corpus);
  const queries = options.queries ?? loadToolSearchQueries().queries;
  const sets: Record<ToolSearchQuerySetName, readonly ToolSearchQuery[]> = {
    all: queries,
    tuning: queries.filter((query) => !isHeldOut(query.id)),
    'held-out': queries.filter((query) => isHeldOut(query.id)),
  };
  const quality: ToolSearchQuality[] = [];
  for (const [ranker, build] of Object.entries(TOOL_SEARCH_RANKERS) as Array<
    [ToolSearchRankerName, (entries: readonly CorpusEntry[]) => RankTools]
  >) {
    const rank = build(entries);
    for (const [set, setQueries] of Object.entries(sets) as Array<[ToolSearchQuerySetName, readonly ToolSearchQuery[]]>) {
      quality.push({ set, ranker, ...(await measureRecall(setQueries, rank)) });
    }
  }
  const scaled = scaledCorpusEntries(corpus, options.timingTools ?? 500);
  const timing = (Object.keys(TOOL_SEARCH_RANKERS) as ToolSearchRankerName[]).map((ranker) =>
    timeRanker(ranker, scaled, queries, options.repetitions ?? 10),
  );
  return { corpus: { tools: entries.length, servers: corpus.servers.length }, quality, timing, goals: checkGoals(quality) };
}

function timeRanker(
  ranker: ToolSearchRankerName,
  entries: readonly CorpusEntry[],
  queries: readonly ToolSearchQuery[],
  repetitions: number,
): ToolSearchTiming {
  const build = TOOL_SEARCH_RANKERS[ranker];
  const builds: number[] = [];
  const searches: number[] = [];
  // One untimed round first: the JIT compiles what a build and a search run.
  for (let repetition = 0; repetition <= repetitions; repetition += 1) {
    const started = performance.now();
    const rank = build(entries);
    const built = performance.now();
    if (repetition > 0) builds.push(built - started);
    for (const query of queries) {
      const before = performance.now();
      void rank(query.query);
      if (repetition > 0) searches.push((performance.now() - before) * 1000);
    }
  }
  return {
    ranker,
    tools: entries.length,
    buildMs: median(builds),
    searchMedianUs: median(searches),
    searchP99Us: percentile(searches, 99),
  };
}

function checkGoals(quality: readonly ToolSearchQuality[]): ToolSearchGoal[] {
  const find = (set: ToolSearchQuerySetName, ranker: ToolSearchRankerName): ToolSearchQuality =>
    quality.find((entry) => entry.set === set && entry.ranker === ranker) as ToolSearchQuality;
  const all = find('all', 'tool-search');
  const held = find('held-out', 'tool-search');
  const heldBm25 = find('held-out', 'plain BM25');
  const recall5 = all.recall[5] ?? 0;
  const goals: ToolSearchGoal[] = [
    {
      name: 'recall@5 (all queries)',
      pass: recall5 >= RECALL_AT_5_GOAL,
      detail: `${recall5.toFixed(3)} ${recall5 >= RECALL_AT_5_GOAL ? '>=' : '<'} ${RECALL_AT_5_GOAL}`,
    },
  ];
  for (const [name, ours, theirs] of [
    ['recall@5', held.recall[5] ?? 0, heldBm25.recall[5] ?? 0],
    ['MRR', held.mrr, heldBm25.mrr],
  ] as const) {
    const pass = ours - theirs >= MARGIN_OVER_BM25;
    goals.push({
      name: `${name} over plain BM25 (held-out)`,
      pass,
      detail: `${ours.toFixed(3)} vs ${theirs.toFixed(3)}: +${(ours - theirs).toFixed(3)} ${pass ? '>=' : '<'} +${MARGIN_OVER_BM25}`,
    });
  }
  return goals;
}
