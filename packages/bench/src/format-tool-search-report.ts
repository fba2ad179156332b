import type { ToolSearchBenchReport } from './run-tool-search-bench.js';

/**
 * The report as text: the quality table (one row per query set and ranker), the timing table,
 * the goals, and with `misses` the queries each ranker missed at 5 on the held-out set and on
 * the tuning set.
 */
export function formatToolSearchReport(report: ToolSearchBenchReport, options: { readonly misses?: boolean } = {}): string {
  const lines: string[] = [`tool search over ${report.corpus.tools} real tools of ${report.corpus.servers} servers`, ''];
  lines.push(
    ...table(
      ['queries', 'ranker', 'n', 'recall@1', 'recall@5', 'MRR'],
      report.quality.map((entry) => [
        entry.set,
        entry.ranker,
        String(entry.queries),
        fixed(entry.recall[1]),
        fixed(entry.recall[5]),
        fixed(entry.mrr),
      ]),
    ),
  );
  lines.push('');
  lines.push(
    ...table(
      ['ranker', 'tools', 'build (median)', 'search (median)', 'search (p99)'],
      report.timing.map((entry) => [
        entry.ranker,
        String(entry.tools),
        `${entry.buildMs.toFixed(1)} ms`,
        `${entry.searchMedianUs.toFixed(0)} µs`,
        `${entry.searchP99Us.toFixed(0)} µs`,
      ]),
    ),
  );
  lines.push('');
  for (const goal of report.goals) lines.push(`${goal.pass ? 'PASS' : 'FAIL'} ${goal.name}: ${goal.detail}`);
  const failed = report.goals.filter((goal) => !goal.pass).length;
  lines.push(
    failed === 0
      ? `GOALS: PASS (${report.goals.length} of ${report.goals.length})`
      : `GOALS: FAIL (${failed} of ${report.goals.length} missed)`,
  );
  if (options.misses) {
    for (const entry of report.quality.filter((quality) => quality.set !== 'all')) {
      lines.push('', `missed at 5 by ${entry.ranker} (${entry.set}): ${entry.misses.length}`);
      for (const miss of entry.misses) {
        lines.push(
          `  ${miss.id} ${JSON.stringify(miss.query)} expected ${miss.expected.join(' | ')}; rank ${miss.rank ?? '-'}; got ${miss.found.join(', ')}`,
        );
      }
    }
  }
  return lines.join('\n');
}

function fixed(value: number | undefined): string {
  return (value ?? 0).toFixed(3);
}

/** Rows under a header, columns padded to their widest cell. */
function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}
