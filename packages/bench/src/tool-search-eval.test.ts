import { describe, expect, it } from 'vitest';
import { formatToolSearchReport } from './format-tool-search-report.js';
import { runToolSearchBench } from './run-tool-search-bench.js';
import { loadSchemaCorpus } from './schema-corpus.js';
import {
  corpusEntries,
  isHeldOut,
  loadToolSearchQueries,
  measureRecall,
  plainBm25,
  scaledCorpusEntries,
  toolIndexRanker,
  type ToolSearchQuery,
} from './tool-search-eval.js';

const QUERIES: ToolSearchQuery[] = [
  { id: 'q001', query: 'first', expected: ['s/a'] },
  { id: 'q002', query: 'second', expected: ['s/b', 's/c'] },
  { id: 'q003', query: 'third', expected: ['s/z'] },
];

describe('measureRecall', () => {
  it('counts a query at k when any expected tool is in the top k, and averages 1 / its first position', async () => {
    const answers: Record<string, string[]> = {
      first: ['s/a', 's/x'],
      second: ['s/x', 's/y', 's/z', 's/w', 's/v', 's/c'],
      third: [],
    };
    const report = await measureRecall(QUERIES, (query) => answers[query] ?? []);
    expect(report.queries).toBe(3);
    expect(report.recall).toEqual({ 1: 1 / 3, 5: 1 / 3 });
    expect(report.mrr).toBeCloseTo((1 + 1 / 6 + 0) / 3, 10);
    expect(report.misses.map((miss) => [miss.id, miss.rank])).toEqual([
      ['q002', 6],
      ['q003', undefined],
    ]);
  });

  it('answers zeros for no queries', async () => {
    expect(await measureRecall([], () => [])).toEqual({ queries: 0, recall: { 1: 0, 5: 0 }, mrr: 0, misses: [] });
  });
});

describe('the query set', () => {
  const corpus = loadSchemaCorpus();
  const ids = new Set(corpus.tools.map((tool) => `${tool.server}/${tool.name}`));
  const { queries } = loadToolSearchQueries();

  it('has at least 100 realistic requests over at least 10 servers, each expecting tools of the corpus', () => {
    expect(queries.length).toBeGreaterThanOrEqual(100);
    expect(new Set(queries.map((query) => query.id)).size).toBe(queries.length);
    expect(new Set(queries.map((query) => query.query.toLowerCase())).size).toBe(queries.length);
    for (const query of queries) {
      expect(query.expected.length).toBeGreaterThan(0);
      for (const tool of query.expected) expect(ids, `${query.id} expects ${tool}`).toContain(tool);
    }
    expect(new Set(queries.flatMap((query) => query.expected.map((tool) => tool.split('/')[0]))).size).toBeGreaterThanOrEqual(10);
  });

  it('holds out the ids ending in 3, 6 or 9', () => {
    expect(['q003', 'q016', 'q129'].map(isHeldOut)).toEqual([true, true, true]);
    expect(['q001', 'q010', 'q125'].map(isHeldOut)).toEqual([false, false, false]);
    const held = queries.filter((query) => isHeldOut(query.id)).length;
    expect(held / queries.length).toBeGreaterThan(0.25);
  });
});

describe('the rankers compared', () => {
  const entries = corpusEntries(loadSchemaCorpus());

  it('answer corpus ids, best first, from the same entries', async () => {
    expect(entries).toHaveLength(208);
    expect(new Set(entries.map(({ entry }) => entry.name)).size).toBe(208);
    expect((await toolIndexRanker(entries)('bump the PR branch'))[0]).toBe('github/update_pull_request_branch');
    expect((await plainBm25(entries)('update pull request branch'))[0]).toBe('github/update_pull_request_branch');
  });

  it('are timed over copies of the corpus with renamed servers', () => {
    const scaled = scaledCorpusEntries(loadSchemaCorpus(), 500);
    expect(scaled).toHaveLength(500);
    expect(new Set(scaled.map(({ entry }) => entry.name)).size).toBe(500);
    expect(scaled[208]?.id).toBe(`${entries[0]?.entry.serverName}-2/${entries[0]?.entry.toolName}`);
  });
});

// A tiny run checks that the report has every row and goal; it never judges the numbers (the
// bench does, when run).
describe('a tiny run of the benchmark', () => {
  it('reports both rankers on every query set, timings, and the goals', async () => {
    const report = await runToolSearchBench({ queries: loadToolSearchQueries().queries.slice(0, 20), repetitions: 1, timingTools: 50 });
    expect(report.corpus).toEqual({ tools: 208, servers: 13 });
    expect(report.quality.map((entry) => `${entry.set} ${entry.ranker} ${entry.queries}`)).toEqual([
      'all tool-search 20',
      'tuning tool-search 14',
      'held-out tool-search 6',
      'all plain BM25 20',
      'tuning plain BM25 14',
      'held-out plain BM25 6',
    ]);
    expect(report.timing.map((entry) => [entry.ranker, entry.tools])).toEqual([
      ['tool-search', 50],
      ['plain BM25', 50],
    ]);
    expect(report.goals.map((goal) => goal.name)).toEqual([
      'recall@5 (all queries)',
      'recall@5 over plain BM25 (held-out)',
      'MRR over plain BM25 (held-out)',
    ]);
    const text = formatToolSearchReport(report, { misses: true });
    expect(text).toMatch(/^held-out {2}tool-search {2}6 /m);
    expect(text).toMatch(/^GOALS: (PASS|FAIL) /m);
  });
});
