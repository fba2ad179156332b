import type { BenchResult, CheckResult } from './bench-result.js';
import type { BenchReport } from './run-benchmarks.js';
import type { Spread } from './summarize.js';

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

/** The median of per-repetition ratios and their range: `1.03x (0.99-1.08)`. */
export function formatSpread(spread: Spread): string {
  const bound = (value: number) => (value >= 0.1 ? value.toFixed(2) : value.toPrecision(2));
  return `${formatRatio(spread.median)} (${bound(spread.min)}-${bound(spread.max)})`;
}

const HEADER = [
  'benchmark',
  'reps',
  'wall ratio (min-max)',
  'cpu ratio (min-max)',
  'control wall / cpu',
  'subject wall, cpu',
  'baseline wall, cpu',
  'verdict',
];

function perRun(side: { stats: { median: number }; cpuUs: number }): string {
  return `${formatDuration(side.stats.median)}, ${formatDuration(side.cpuUs / 1000)}`;
}

/** The table row of a comparison. */
export function resultRow(result: BenchResult): string[] {
  const control =
    result.controlWallRatio && result.controlCpuRatio
      ? `${formatSpread(result.controlWallRatio)} / ${formatRatio(result.controlCpuRatio.median)}`
      : '-';
  const verdict = result.verdict ? `${result.verdict.pass ? 'PASS' : 'FAIL'} ${result.verdict.detail}` : '';
  return [
    result.id,
    String(result.repetitions),
    formatSpread(result.wallRatio),
    formatSpread(result.cpuRatio),
    control,
    perRun(result.subject),
    perRun(result.baseline),
    verdict,
  ];
}

/** The table row of a check. */
export function checkRow(check: CheckResult): string[] {
  return [check.id, '-', '-', '-', '-', '-', '-', `${check.verdict.pass ? 'PASS' : 'FAIL'} ${check.verdict.detail}`];
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, i) => (i === 1 ? cell.padStart(widths[i] ?? 0) : i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
    .join('  ')
    .trimEnd();
}

/**
 * The human-readable report: one table with a row per benchmark (median ratio over
 * repetitions with its range, CPU ratio, control ratio, per-run wall and CPU time of both sides,
 * verdict), then what the columns mean, the notes and anything not measured.
 */
export function formatReport(report: BenchReport): string {
  const rows = [...report.results.map(resultRow), ...report.checks.map(checkRow)];
  const widths = HEADER.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const { environment } = report;
  const load = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(' ');
  const lines = [
    `toolhost bench: node ${environment.node} ${environment.platform}, ${environment.cpus} CPU(s), load ${load(environment.loadAverage)}` +
      `${environment.loadAverageAtEnd ? ` (at end ${load(environment.loadAverageAtEnd)})` : ''}, ${formatDuration(report.durationMs)} total`,
    '',
    pad(HEADER, widths),
    pad(
      widths.map((width) => '-'.repeat(width)),
      widths,
    ),
    ...rows.map((row) => pad(row, widths)),
    '',
    'ratios: subject/baseline (toolhost/sdk, sanitize/clone, map/decode), median over repetitions (range); above 1 the subject is slower.',
    'wall: per repetition, median of per-round ratios; cpu: per repetition, CPU time of the bench process (child processes not counted).',
    'control: a second SDK client on its own server process against the baseline (same code both sides): the noise floor.',
    'subject/baseline wall, cpu: median wall time and CPU time per run over the repetitions (so they need not divide to the ratio).',
    'PASS/FAIL is informational: the exit code ignores it (1 only when something could not be measured).',
  ];
  const notes = [...report.results, ...report.checks].flatMap((entry) => (entry.notes ?? []).map((note) => `  ${entry.id}: ${note}`));
  if (notes.length > 0) lines.push('', 'notes:', ...[...new Set(notes)]);
  for (const failure of report.failures) lines.push(`NOT MEASURED ${failure.benchmark}: ${failure.message}`);
  return lines.join('\n');
}
