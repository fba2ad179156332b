import { performance } from 'node:perf_hooks';
import type { InterleavedSamples } from './compare-interleaved.js';
import { meanRatio, pairedRatio } from './ratio.js';
import { mean, median, spreadOf, summarize, type SampleStats, type Spread } from './summarize.js';

/** Options of {@link runRepetitions}. */
export interface RunRepetitionsOptions {
  /** Repetitions to run. */
  readonly repetitions: number;
  /** Stop starting repetitions once they have taken this long (milliseconds), after `minRepetitions`. @default Infinity */
  readonly timeBudgetMs?: number;
  /** Repetitions always run, whatever the time budget. @default 3, capped at `repetitions` */
  readonly minRepetitions?: number;
}

/**
 * Run `repetition(index)` up to `repetitions` times, one after another. Each repetition is an
 * independent comparison (fresh hosts, clients and child processes where the benchmark has
 * them), so the spread of the per-repetition ratios shows how far one number can be trusted.
 */
export async function runRepetitions(
  options: RunRepetitionsOptions,
  repetition: (index: number) => Promise<InterleavedSamples>,
): Promise<InterleavedSamples[]> {
  if (!(options.repetitions >= 1)) throw new RangeError('repetitions must be at least 1');
  const budget = options.timeBudgetMs ?? Number.POSITIVE_INFINITY;
  const minRepetitions = Math.min(options.repetitions, options.minRepetitions ?? 3);
  const start = performance.now();
  const results: InterleavedSamples[] = [];
  for (let i = 0; i < options.repetitions; i += 1) {
    if (i >= minRepetitions && performance.now() - start >= budget) break;
    results.push(await repetition(i));
  }
  return results;
}

/** One side over every repetition. */
export interface SideSummary {
  /** Wall time per run in milliseconds, over every timed sample of every repetition. */
  readonly stats: SampleStats;
  /** CPU time of this process per run in microseconds: the median over repetitions of each repetition's mean. */
  readonly cpuUs: number;
}

/** What {@link summarizeRepetitions} makes of the repetitions of one comparison. */
export interface RepetitionSummary {
  /** Repetitions that ran. */
  readonly repetitions: number;
  readonly subject: SideSummary;
  readonly baseline: SideSummary;
  /** Present when every repetition had a control. */
  readonly control?: SideSummary;
  /** Per repetition: median of the per-round ratios subject/baseline of wall time. */
  readonly wallRatio: Spread;
  /** Per repetition: total CPU time of the subject over total CPU time of the baseline (per run). */
  readonly cpuRatio: Spread;
  /** Per repetition: like {@link wallRatio}, control/baseline (same code on both sides: the noise floor). */
  readonly controlWallRatio?: Spread;
  /** Per repetition: like {@link cpuRatio}, control/baseline. */
  readonly controlCpuRatio?: Spread;
}

function side(
  repetitions: readonly InterleavedSamples[],
  pick: (samples: InterleavedSamples) => { wall: number[]; cpu: number[] },
): SideSummary {
  const picked = repetitions.map(pick);
  return {
    stats: summarize(picked.flatMap((samples) => samples.wall)),
    cpuUs: median(picked.map((samples) => mean(samples.cpu))),
  };
}

/**
 * Per-repetition ratios and their spread. Inside a repetition the wall-time ratio is the median
 * of the per-round ratios (both sides of a round ran under the same load) and the CPU ratio is
 * the ratio of the CPU time each side used; across repetitions, the median and the spread.
 */
export function summarizeRepetitions(repetitions: readonly InterleavedSamples[]): RepetitionSummary {
  if (repetitions.length === 0) throw new RangeError('no repetitions to summarise');
  const withControl = repetitions.every((samples) => samples.control !== undefined && samples.cpu.control !== undefined);
  const controlOf = (samples: InterleavedSamples) => ({ wall: samples.control ?? [], cpu: samples.cpu.control ?? [] });
  return {
    repetitions: repetitions.length,
    subject: side(repetitions, (samples) => ({ wall: samples.subject, cpu: samples.cpu.subject })),
    baseline: side(repetitions, (samples) => ({ wall: samples.baseline, cpu: samples.cpu.baseline })),
    wallRatio: spreadOf(repetitions.map((samples) => pairedRatio(samples.subject, samples.baseline))),
    cpuRatio: spreadOf(repetitions.map((samples) => meanRatio(samples.cpu.subject, samples.cpu.baseline))),
    ...(withControl
      ? {
          control: side(repetitions, controlOf),
          controlWallRatio: spreadOf(repetitions.map((samples) => pairedRatio(controlOf(samples).wall, samples.baseline))),
          controlCpuRatio: spreadOf(repetitions.map((samples) => meanRatio(controlOf(samples).cpu, samples.cpu.baseline))),
        }
      : {}),
  };
}
