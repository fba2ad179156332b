import { formatDuration } from './format-report.js';
import type { ScaleFailure, ScaleRun } from './run-scale.js';
import { SATURATED_SLICE_STRETCH, SCALE_GOAL, SCALE_GOAL_HOSTS, toKb, type MemoryPerHost, type ScaleGoal } from './scale-stats.js';

/** The verdict over every revision of a `pnpm bench:scale` run. */
export interface ScaleSummary {
  /** Every measured revision met the goals (and none failed to measure). */
  readonly pass: boolean;
  /** The largest `per-host memory over raw` over the revisions, in KB (`undefined` when nothing was measured). */
  readonly memoryOverRawKb: number | undefined;
  /** The largest p99 ratio over the revisions. */
  readonly p99Ratio: number | undefined;
}

function kb(bytes: number): string {
  return `${toKb(bytes)} KB`;
}

function memoryDetail(memory: MemoryPerHost): string {
  return `heap ${kb(memory.heapUsed)} + external ${kb(memory.external)}, of which arrayBuffers ${kb(memory.arrayBuffers)}; rss ${kb(memory.rss)}`;
}

/** The lines of one revision: memory per host of each side, latency of each side, the two ratios and the verdict. */
export function formatScaleRun(run: ScaleRun): string[] {
  const { memory, latency } = run;
  const side = (name: string, s: ScaleRun['latency']['host']) =>
    `    ${name.padEnd(31)} p50 ${formatDuration(s.latency.p50)}, p90 ${formatDuration(s.latency.p90)}, p99 ${formatDuration(s.latency.p99)}, max ${formatDuration(s.latency.max)}; cpu ${formatDuration(s.cpuUsPerRequest / 1000)}/request; slices ${s.sliceStretch.toFixed(2)}x planned; ${s.latency.count} answers checked`;
  const saturated = [latency.host, latency.raw, latency.control].filter((s) => s.sliceStretch > SATURATED_SLICE_STRETCH);
  const warning =
    saturated.length > 0
      ? [
          `  SATURATED: ${saturated.map((s) => s.label).join(', ')} could not keep up with ${run.rate} req/s on this machine (slices over ${SATURATED_SLICE_STRETCH}x their planned time): the latencies measure a growing queue, the p99 ratio mostly CPU per request; lower --rate for latencies`,
        ]
      : [];
  return [
    `${run.revision}: ${run.hosts} hosts, ${run.rate} req/s per side for ${run.durationMs / 1000} s in ${run.sliceMs} ms slices: ` +
      `memory over raw ${kb(memory.overRawBytes)} per host, p99 ratio ${latency.p99Ratio.toFixed(2)} (control ${latency.controlP99Ratio.toFixed(2)}; ` +
      `per-round median ${latency.roundP99Ratio.toFixed(2)}, control ${latency.controlRoundP99Ratio.toFixed(2)}): ` +
      `${run.verdict.pass ? 'PASS' : 'FAIL'} ${run.verdict.detail}`,
    `  memory per host (median of ${memory.samples} GC'd samples, heap used + external):`,
    `    McpToolHost (created, discovered)  ${kb(memory.host.bytes)}  (${memoryDetail(memory.host)})`,
    `    raw SDK Client (connected, listed) ${kb(memory.raw.bytes)}  (${memoryDetail(memory.raw)})`,
    `  latency (open loop, from each request's scheduled time to its checked answer):`,
    side(latency.host.label, latency.host),
    side(latency.raw.label, latency.raw),
    side(latency.control.label, latency.control),
    `  load average ${run.environment.loadAverage.map((value) => value.toFixed(2)).join(' ')} at start, ${run.environment.loadAverageAtEnd
      .map((value) => value.toFixed(2))
      .join(' ')} at end; ${formatDuration(run.wallMs)}`,
    ...warning,
  ];
}

/** The worst figures and the verdict over every revision. */
export function summarizeScale(runs: readonly ScaleRun[], failures: readonly ScaleFailure[] = []): ScaleSummary {
  if (runs.length === 0) return { pass: false, memoryOverRawKb: undefined, p99Ratio: undefined };
  return {
    pass: failures.length === 0 && runs.every((run) => run.verdict.pass),
    memoryOverRawKb: Math.max(...runs.map((run) => toKb(run.memory.overRawBytes))),
    p99Ratio: Math.max(...runs.map((run) => run.latency.p99Ratio)),
  };
}

/** `(2025-11-25: 120 KB, 2026-07-28: 95 KB; the larger shown)` after a required line, when more than one revision ran. */
function perRevision(runs: readonly ScaleRun[], value: (run: ScaleRun) => string): string {
  if (runs.length < 2) return runs[0] ? ` (${runs[0].revision})` : '';
  return ` (${runs.map((run) => `${run.revision}: ${value(run)}`).join(', ')}; the larger shown)`;
}

/**
 * The report of a `pnpm bench:scale` run: the lines of each revision, anything not measured,
 * then the two required lines, `per-host memory over raw: <n> KB` and `p99 ratio: <x>` (the
 * larger over the revisions, each revision's figure beside it), and the verdict against the goals.
 */
export function formatScaleReport(params: {
  readonly runs: readonly ScaleRun[];
  readonly failures: readonly ScaleFailure[];
  readonly hosts: number;
  readonly check: boolean;
  readonly goal?: ScaleGoal;
}): { readonly text: string; readonly summary: ScaleSummary } {
  const { runs, failures, hosts, check } = params;
  const goal = params.goal ?? SCALE_GOAL;
  const summary = summarizeScale(runs, failures);
  const lines: string[] = [`toolhost bench:scale: ${hosts} McpToolHosts vs ${hosts} raw SDK clients over Streamable HTTP on loopback`, ''];
  for (const run of runs) lines.push(...formatScaleRun(run), '');
  for (const failure of failures) lines.push(`NOT MEASURED ${failure.revision}: ${failure.message}`);
  if (failures.length > 0) lines.push('');
  if (summary.memoryOverRawKb !== undefined && summary.p99Ratio !== undefined) {
    lines.push(`per-host memory over raw: ${summary.memoryOverRawKb} KB${perRevision(runs, (run) => kb(run.memory.overRawBytes))}`);
    lines.push(`p99 ratio: ${summary.p99Ratio.toFixed(2)}${perRevision(runs, (run) => run.latency.p99Ratio.toFixed(2))}`);
  }
  const goals = `<= ${toKb(goal.memoryOverRawBytes)} KB per host over raw, p99 ratio <= ${goal.p99Ratio.toFixed(2)} (set for ${SCALE_GOAL_HOSTS} hosts)`;
  const verdict =
    runs.length === 0
      ? 'NOT MEASURED'
      : summary.pass
        ? 'PASS'
        : `FAIL (${[...runs.filter((run) => !run.verdict.pass).map((run) => `${run.revision}: ${run.verdict.detail}`), ...failures.map((failure) => `${failure.revision} not measured`)].join('; ')})`;
  lines.push(
    `GOALS ${goals}: ${verdict}${check || failures.length > 0 ? '' : ' (printed only; --check makes a miss exit 1)'}`,
    '',
    `memory: (heap used + external after gc) growth per host of each side, median of the GC'd samples; "over raw" = McpToolHost - raw SDK Client.`,
    'p99 ratio: p99 of McpToolHost.callTool / p99 of the raw SDK client.callTool over every timed answer (the goal); control: a second set of raw',
    'clients over the first, the noise floor; per-round median: the median over slice rounds of the same ratio within a round (both sides back to back).',
  );
  return { text: lines.join('\n'), summary };
}
