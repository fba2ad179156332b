import type { BenchResult, CheckResult } from './bench-result.js';
import { reportProblems, type BenchReport } from './run-benchmarks.js';
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
  'negotiated',
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
    result.revision ?? '-',
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
  return [check.id, '-', '-', '-', '-', '-', '-', '-', `${check.verdict.pass ? 'PASS' : 'FAIL'} ${check.verdict.detail}`];
}

function pad(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((cell, i) => (i === 1 ? cell.padStart(widths[i] ?? 0) : i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
    .join('  ')
    .trimEnd();
}

/** The last line of the report: `GOALS: PASS (...)` or `GOALS: FAIL (...)` with every problem. */
export function goalsLine(report: BenchReport): string {
  const problems = reportProblems(report);
  const judged = report.results.filter((result) => result.verdict).length + report.checks.length;
  if (problems.length === 0) return `GOALS: PASS (${judged} of ${judged} goals and checks met, every wire as claimed)`;
  return `GOALS: FAIL (${problems.length} problem${problems.length === 1 ? '' : 's'}; exit code 1)\n${problems.map((problem) => `  FAIL ${problem}`).join('\n')}`;
}

/**
 * The human-readable report: one table with a row per benchmark (negotiated revision, median
 * ratio over repetitions with its range, CPU ratio, control ratio, per-run wall and CPU time of
 * both sides, verdict), then what the columns mean, the notes, anything not measured, and the
 * {@link goalsLine}.
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
    'negotiated: the MCP revision every host and raw SDK client of the row negotiated, checked in every repetition (a mismatch is NOT MEASURED).',
    'wall: per repetition, median of per-round ratios; cpu: per repetition, CPU time of the bench process (child processes not counted).',
    'control: a second raw SDK side on its own server processes against the baseline (same code both sides): the noise floor.',
    'subject/baseline wall, cpu: median wall time and CPU time per run over the repetitions (so they need not divide to the ratio).',
    'goals are on the median wall ratio; a missed goal, a failed check or anything not measured makes the exit code 1.',
  ];
  const notes = [...report.results, ...report.checks].flatMap((entry) => (entry.notes ?? []).map((note) => `  ${entry.id}: ${note}`));
  if (notes.length > 0) lines.push('', 'notes:', ...[...new Set(notes)]);
  for (const failure of report.failures) {
    lines.push(`NOT MEASURED ${failure.benchmark}${failure.wire ? ` (${failure.wire})` : ''}: ${failure.message}`);
  }
  lines.push('', goalsLine(report));
  return lines.join('\n');
}
