import { performance } from 'node:perf_hooks';

/** A unit of work to time; may be synchronous or return a promise. */
export type BenchTask = () => unknown;

/** Options of {@link compareInterleaved}. */
export interface CompareInterleavedOptions {
  /** The code under test (toolhost). */
  readonly subject: BenchTask;
  /** The reference it is compared with (the SDK used directly, `structuredClone`...). */
  readonly baseline: BenchTask;
  /** Untimed rounds run first (JIT, caches, lazy imports). @default 1 */
  readonly warmup?: number;
  /** Timed rounds; each round times the subject and the baseline once. */
  readonly iterations: number;
  /**
   * Stop starting new rounds once the timed rounds have taken this long (milliseconds), as
   * long as `minIterations` rounds are done; keeps slow benchmarks bounded on a loaded machine.
   * @default Infinity
   */
  readonly timeBudgetMs?: number;
  /** Rounds always run, whatever the time budget. @default 3, capped at `iterations` */
  readonly minIterations?: number;
  /**
   * Runs of the task per sample (the sample is the mean of one batch), for both sides or per
   * side when their costs differ by orders of magnitude. @default 1
   */
  readonly batch?: number | { readonly subject: number; readonly baseline: number };
}

/** Per-run times of both sides, in milliseconds, one sample per round. */
export interface InterleavedSamples {
  /** Samples of the subject. */
  readonly subject: number[];
  /** Samples of the baseline. */
  readonly baseline: number[];
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Time `batch` runs of a task and return the mean time per run in milliseconds. */
export async function timeBatch(task: BenchTask, batch = 1): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < batch; i += 1) {
    const result = task();
    if (isThenable(result)) await result;
  }
  return (performance.now() - start) / batch;
}

/**
 * Time a subject against a baseline in alternating rounds (subject first in even rounds,
 * baseline first in odd ones), so a load spike on a shared machine hits both sides alike.
 */
export async function compareInterleaved(options: CompareInterleavedOptions): Promise<InterleavedSamples> {
  const batch = options.batch ?? 1;
  const subjectBatch = typeof batch === 'number' ? batch : batch.subject;
  const baselineBatch = typeof batch === 'number' ? batch : batch.baseline;
  if (!(options.iterations >= 1) || !(subjectBatch >= 1) || !(baselineBatch >= 1)) {
    throw new RangeError('iterations and batch sizes must be at least 1');
  }
  const runSubject = () => timeBatch(options.subject, subjectBatch);
  const runBaseline = () => timeBatch(options.baseline, baselineBatch);
  for (let i = 0; i < (options.warmup ?? 1); i += 1) {
    await runSubject();
    await runBaseline();
  }
  const subject: number[] = [];
  const baseline: number[] = [];
  const budget = options.timeBudgetMs ?? Number.POSITIVE_INFINITY;
  const minIterations = Math.min(options.iterations, options.minIterations ?? 3);
  const start = performance.now();
  for (let i = 0; i < options.iterations; i += 1) {
    if (i >= minIterations && performance.now() - start >= budget) break;
    if (i % 2 === 0) {
      subject.push(await runSubject());
      baseline.push(await runBaseline());
    } else {
      baseline.push(await runBaseline());
      subject.push(await runSubject());
    }
  }
  return { subject, baseline };
}
