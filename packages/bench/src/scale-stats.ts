// The pure arithmetic of `pnpm bench:scale`: memory per host, latency percentiles, the p99 ratio
// and the goal verdict. No I/O, no clocks: unit-tested in scale-functions.test.ts.
import { ratio } from './ratio.js';
import { median, percentile } from './summarize.js';
import { roundOrder } from './compare-interleaved.js';

/** The goals of `pnpm bench:scale`, set for 200 hosts. */
export interface ScaleGoal {
  /** Highest acceptable memory per host over a raw SDK client, in bytes. */
  readonly memoryOverRawBytes: number;
  /** Highest acceptable p99 latency ratio, toolhost/raw. */
  readonly p99Ratio: number;
}

/** At 200 hosts: under 200 KB per host over a raw client, and a p99 within 1.1x of the raw client's. */
export const SCALE_GOAL: ScaleGoal = { memoryOverRawBytes: 200 * 1024, p99Ratio: 1.1 };

/** The host count {@link SCALE_GOAL} is set for. */
export const SCALE_GOAL_HOSTS = 200;

/**
 * A side whose slices took this much longer than planned (first send to last answer) did not
 * keep up with the rate: its latencies measure a queue that grew during each slice, and the p99
 * ratio mostly the ratio of CPU per request. The report says so; lower `--rate` for latencies.
 */
export const SATURATED_SLICE_STRETCH = 1.25;

/** The part of `process.memoryUsage()` the bench counts. */
export interface MemorySample {
  readonly heapUsed: number;
  /** C++ objects bound to JavaScript objects, `arrayBuffers` included. */
  readonly external: number;
  /** Buffers and ArrayBuffers (already part of `external`). */
  readonly arrayBuffers: number;
  /** Resident set size of the whole process (not counted; reported). */
  readonly rss: number;
}

/** The counted memory of a sample: heap used + external (which already holds `arrayBuffers`). */
export function countedBytes(sample: MemorySample): number {
  return sample.heapUsed + sample.external;
}

/** The element-wise median of several samples (each field on its own). */
export function medianSample(samples: readonly MemorySample[]): MemorySample {
  if (samples.length === 0) throw new RangeError('cannot take the median of no memory samples');
  return {
    heapUsed: median(samples.map((sample) => sample.heapUsed)),
    external: median(samples.map((sample) => sample.external)),
    arrayBuffers: median(samples.map((sample) => sample.arrayBuffers)),
    rss: median(samples.map((sample) => sample.rss)),
  };
}

/** Growth of one side's memory from `before` to `after`, per host. */
export interface MemoryPerHost {
  /** Heap used + external, bytes per host. */
  readonly bytes: number;
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
  readonly rss: number;
}

/** `(after - before) / count`, field by field, and the counted bytes ({@link countedBytes}) per host. */
export function memoryPerHost(before: MemorySample, after: MemorySample, count: number): MemoryPerHost {
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`host count ${count} must be a positive whole number`);
  const per = (field: keyof MemorySample) => (after[field] - before[field]) / count;
  return {
    bytes: (countedBytes(after) - countedBytes(before)) / count,
    heapUsed: per('heapUsed'),
    external: per('external'),
    arrayBuffers: per('arrayBuffers'),
    rss: per('rss'),
  };
}

/** Latency percentiles of one side, in milliseconds. */
export interface LatencySummary {
  /** Answers timed. */
  readonly count: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

/** Nearest-rank p50, p90, p99 and the maximum of per-request latencies. */
export function latencySummary(latenciesMs: readonly number[]): LatencySummary {
  return {
    count: latenciesMs.length,
    p50: percentile(latenciesMs, 50),
    p90: percentile(latenciesMs, 90),
    p99: percentile(latenciesMs, 99),
    max: percentile(latenciesMs, 100),
  };
}

/** `p99(subject) / p99(baseline)`: above 1 the subject's tail is slower. */
export function p99Ratio(subject: LatencySummary, baseline: LatencySummary): number {
  return ratio(subject.p99, baseline.p99);
}

/**
 * The median over slice rounds of `p99(subject round) / p99(baseline round)`: both sides of a
 * round ran back to back, under the same load, so a load spike in one round moves both and not
 * the median. A second reading of the tail beside {@link p99Ratio} on a shared machine.
 */
export function pairedP99Ratio(subjectRounds: readonly (readonly number[])[], baselineRounds: readonly (readonly number[])[]): number {
  if (subjectRounds.length !== baselineRounds.length || subjectRounds.length === 0) {
    throw new RangeError(`paired rounds differ in number or are empty: ${subjectRounds.length} and ${baselineRounds.length}`);
  }
  // A round where either side sent nothing (a last, very short slice) has no ratio.
  const ratios = subjectRounds.flatMap((round, i) => {
    const baseline = baselineRounds[i] as readonly number[];
    return round.length > 0 && baseline.length > 0 ? [ratio(percentile(round, 99), percentile(baseline, 99))] : [];
  });
  return median(ratios);
}

/** PASS/FAIL of one revision against {@link ScaleGoal}. */
export interface ScaleVerdict {
  readonly pass: boolean;
  /** `memory 132 KB <= 200 KB, p99 1.04 <= 1.10`. */
  readonly detail: string;
}

/** Kilobytes (1024 bytes), rounded to a whole number: the unit of `per-host memory over raw: <n> KB`. */
export function toKb(bytes: number): number {
  return Math.round(bytes / 1024);
}

/** Judge memory per host over raw (bytes) and the p99 ratio against a goal. */
export function judgeScale(goal: ScaleGoal, memoryOverRawBytes: number, ratioOfP99: number): ScaleVerdict {
  const memoryOk = memoryOverRawBytes <= goal.memoryOverRawBytes;
  const p99Ok = ratioOfP99 <= goal.p99Ratio;
  return {
    pass: memoryOk && p99Ok,
    detail:
      `memory ${toKb(memoryOverRawBytes)} KB ${memoryOk ? '<=' : '>'} ${toKb(goal.memoryOverRawBytes)} KB, ` +
      `p99 ${ratioOfP99.toFixed(2)} ${p99Ok ? '<=' : '>'} ${goal.p99Ratio.toFixed(2)}`,
  };
}

/**
 * The order of the sides in every slice round: with `sides` sides, round `i` starts with a
 * different side each time and every side takes each position equally often (2 sides: AB, BA;
 * 3 sides: the six permutations in turn), so drift over the run hits every side alike.
 */
export function sliceSchedule(sides: number, rounds: number): number[][] {
  return Array.from({ length: rounds }, (_, round) => roundOrder(sides, round));
}

/**
 * The open-loop send times of one slice: `count = round(rate x durationMs / 1000)` requests at
 * `start + k x 1000 / rate` milliseconds, whatever the answers do (a slow answer never delays the
 * next request, so queueing shows up in the latencies).
 */
export function openLoopSchedule(rate: number, durationMs: number, start = 0): number[] {
  if (!(rate > 0) || !(durationMs >= 0)) throw new RangeError(`rate ${rate} must be positive and duration ${durationMs} not negative`);
  const interval = 1000 / rate;
  return Array.from({ length: Math.round((rate * durationMs) / 1000) }, (_, k) => start + k * interval);
}
