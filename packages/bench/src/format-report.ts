import type { BenchReport } from './run-benchmarks.js';
import type { BenchResult, BenchSide } from './bench-result.js';

/** A time in milliseconds with a unit that keeps 3-4 significant digits (`1.23 µs`, `45.6 ms`, `1.20 s`). */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 1) return `${ms.toFixed(ms >= 100 ? 0 : ms >= 10 ? 1 : 2)} ms`;
  const us = ms * 1000;
  if (us >= 1) return `${us.toFixed(us >= 100 ? 0 : us >= 10 ? 1 : 2)} µs`;
  return `${(us * 1000).toFixed(0)} ns`;
}

/** A ratio as `1.07x` (more digits below 0.1x). */
export function formatRatio(value: number): string {
  return `${value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)}x`;
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells.map((cell, i) => (i === 0 || i === 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
}

function sideRow(id: string, side: BenchSide): string[] {
  const { stats } = side;
  return [id, side.label, formatDuration(stats.median), formatDuration(stats.p90), formatDuration(stats.min), String(stats.count)];
}

/**
 * The ratio line of a comparison, ratio of the medians then the median of per-round ratios:
 * `discovery(20 stdio) toolhost/sdk = 1.07x (paired 1.05x)`.
 */
export function formatRatioLine(result: BenchResult): string | undefined {
  if (result.ratio === undefined || result.ratioName === undefined) return undefined;
  const paired = result.pairedRatio === undefined ? '' : ` (paired ${formatRatio(result.pairedRatio)})`;
  return `${result.id} ${result.ratioName} = ${formatRatio(result.ratio)}${paired}`;
}

/** The human-readable report: environment line, a table of medians and p90s, one line per ratio. */
export function formatReport(report: BenchReport): string {
  const header = ['benchmark', 'side', 'median', 'p90', 'min', 'n'];
  const rows: string[][] = [];
  for (const result of report.results) {
    rows.push(sideRow(result.id, result.subject));
    if (result.baseline) rows.push(sideRow('', result.baseline));
  }
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const lines = [
    `toolhost bench: node ${report.environment.node}, ${report.environment.cpus} CPU(s), load ${report.environment.loadAverage.map((load) => load.toFixed(2)).join(' ')}, ${formatDuration(report.durationMs)} total`,
    '',
    pad(header, widths),
    pad(widths.map((width) => '-'.repeat(width)), widths),
    ...rows.map((row) => pad(row, widths)),
    '',
    ...report.results.map(formatRatioLine).filter((line): line is string => line !== undefined),
  ];
  for (const failure of report.failures) lines.push(`NOT MEASURED ${failure.benchmark}: ${failure.message}`);
  return lines.join('\n');
}
