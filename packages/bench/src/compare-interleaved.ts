import { performance } from 'node:perf_hooks';

/** A unit of work to time; may be synchronous or return a promise. */
export type BenchTask = () => unknown;

/** Runs of each side per sample, when the sides' costs differ by orders of magnitude. */
export interface SideBatches {
  readonly subject: number;
  readonly baseline: number;
  /** @default the baseline's */
  readonly control?: number;
}

/** Options of {@link compareInterleaved}. */
export interface CompareInterleavedOptions {
  /** The code under test (toolhost). */
  readonly subject: BenchTask;
  /** The reference it is compared with (the SDK used directly, `structuredClone`...). */
  readonly baseline: BenchTask;
  /**
   * A second copy of the baseline (same code, its own resources), timed like the other two:
   * its ratio to the baseline is the noise floor of the comparison.
   */
  readonly control?: BenchTask;
  /** Untimed rounds run first (JIT, caches, lazy imports). @default 1 */
  readonly warmup?: number;
  /** Timed rounds; each round times every side once. */
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
   * Runs of the task per sample (the sample is the mean of one batch), for every side or per
   * side when their costs differ by orders of magnitude. @default 1
   */
  readonly batch?: number | SideBatches;
}

/** Per-run wall time (milliseconds) and CPU time of this process (microseconds), one entry per round. */
export interface InterleavedSamples {
  readonly subject: number[];
  readonly baseline: number[];
  /** Present when a control ran. */
  readonly control?: number[];
  /** CPU time of this process per run, in microseconds (user + system), measured over each batch. */
  readonly cpu: {
    readonly subject: number[];
    readonly baseline: number[];
    readonly control?: number[];
  };
}

/** One batch: mean wall time and mean CPU time of this process per run. */
export interface BatchMeasurement {
  /** Wall time per run, milliseconds. */
  readonly wallMs: number;
  /** CPU time (user + system) of this process per run, microseconds; child processes are not counted. */
  readonly cpuUs: number;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Run `batch` runs of a task one after another and return the mean wall time and the mean CPU
 * time of this process (`process.cpuUsage()`, every thread of it) per run.
 */
export async function measureBatch(task: BenchTask, batch = 1): Promise<BatchMeasurement> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < batch; i += 1) {
    const result = task();
    if (isThenable(result)) await result;
  }
  const wallMs = (performance.now() - start) / batch;
  const cpu = process.cpuUsage(cpuStart);
  return { wallMs, cpuUs: (cpu.user + cpu.system) / batch };
}

/** Time `batch` runs of a task and return the mean time per run in milliseconds. */
export async function timeBatch(task: BenchTask, batch = 1): Promise<number> {
  return (await measureBatch(task, batch)).wallMs;
}

/** The side orders of {@link roundOrder}, by number of sides. */
const ORDERS: Readonly<Record<number, readonly (readonly number[])[]>> = {
  1: [[0]],
  2: [
    [0, 1],
    [1, 0],
  ],
  3: [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [0, 2, 1],
    [2, 1, 0],
    [1, 0, 2],
  ],
};

/**
 * The order of the sides in round `round`: one side alone; with two sides subject first in even
 * rounds and baseline first in odd ones; with three, every permutation in turn (each side takes
 * each position equally often over six rounds).
 *
 * @throws RangeError for fewer than 1 or more than 3 sides.
 */
export function roundOrder(sides: number, round: number): number[] {
  const orders = ORDERS[sides];
  if (!orders) throw new RangeError(`between 1 and 3 sides, not ${sides}`);
  return orders[round % orders.length] as number[];
}

/**
 * Time a subject against a baseline (and optionally a control) in rounds that change which side
 * runs first, so a load spike on a shared machine hits every side alike. Every sample is a
 * batch, timed on the wall clock and on this process's CPU clock.
 */
export async function compareInterleaved(options: CompareInterleavedOptions): Promise<InterleavedSamples> {
  const batch = options.batch ?? 1;
  const batches = typeof batch === 'number' ? [batch, batch, batch] : [batch.subject, batch.baseline, batch.control ?? batch.baseline];
  if (!(options.iterations >= 1) || !batches.every((size) => size >= 1)) {
    throw new RangeError('iterations and batch sizes must be at least 1');
  }
  const tasks = [options.subject, options.baseline, ...(options.control ? [options.control] : [])];
  const wall: number[][] = tasks.map(() => []);
  const cpu: number[][] = tasks.map(() => []);
  const run = (side: number) => measureBatch(tasks[side] as BenchTask, batches[side]);
  for (let i = 0; i < (options.warmup ?? 1); i += 1) {
    for (let side = 0; side < tasks.length; side += 1) await run(side);
  }
  const budget = options.timeBudgetMs ?? Number.POSITIVE_INFINITY;
  const minIterations = Math.min(options.iterations, options.minIterations ?? 3);
  const start = performance.now();
  for (let i = 0; i < options.iterations; i += 1) {
    if (i >= minIterations && performance.now() - start >= budget) break;
    for (const side of roundOrder(tasks.length, i)) {
      const measured = await run(side);
      wall[side]?.push(measured.wallMs);
      cpu[side]?.push(measured.cpuUs);
    }
  }
  return {
    subject: wall[0] as number[],
    baseline: wall[1] as number[],
    ...(options.control ? { control: wall[2] as number[] } : {}),
    cpu: {
      subject: cpu[0] as number[],
      baseline: cpu[1] as number[],
      ...(options.control ? { control: cpu[2] as number[] } : {}),
    },
  };
}
