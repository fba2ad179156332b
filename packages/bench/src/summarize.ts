/** Summary of a set of timing samples, in milliseconds. */
export interface SampleStats {
  /** Number of samples. */
  readonly count: number;
  /** Median (50th percentile). */
  readonly median: number;
  /** 90th percentile (nearest rank). */
  readonly p90: number;
  /** Fastest sample. */
  readonly min: number;
  /** Slowest sample. */
  readonly max: number;
  /** Arithmetic mean. */
  readonly mean: number;
}

function sorted(samples: readonly number[]): number[] {
  if (samples.length === 0) throw new RangeError('cannot summarise an empty list of samples');
  for (const sample of samples) {
    if (!Number.isFinite(sample)) throw new RangeError(`sample ${String(sample)} is not a finite number`);
  }
  return [...samples].sort((a, b) => a - b);
}

/** The arithmetic mean of the samples (NaN for none). */
export function mean(samples: readonly number[]): number {
  return samples.reduce((sum, value) => sum + value, 0) / samples.length;
}

/** The median of the samples: the middle value, or the mean of the two middle values. */
export function median(samples: readonly number[]): number {
  const values = sorted(samples);
  const middle = Math.floor(values.length / 2);
  return values.length % 2 === 1 ? (values[middle] as number) : ((values[middle - 1] as number) + (values[middle] as number)) / 2;
}

/**
 * The nearest-rank percentile of the samples (`p` from 0 to 100): the smallest sample such that
 * at least `p`% of the samples are less than or equal to it.
 */
export function percentile(samples: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile ${p} is not between 0 and 100`);
  const values = sorted(samples);
  const rank = Math.max(1, Math.ceil((p / 100) * values.length));
  return values[rank - 1] as number;
}

/** Median, p90, min, max and mean of the samples. */
export function summarize(samples: readonly number[]): SampleStats {
  const values = sorted(samples);
  return {
    count: values.length,
    median: median(values),
    p90: percentile(values, 90),
    min: values[0] as number,
    max: values[values.length - 1] as number,
    mean: mean(values),
  };
}

/** Where a set of per-repetition values lies: median, quartiles (nearest rank) and extremes. */
export interface Spread {
  /** Number of values (repetitions). */
  readonly count: number;
  /** Median of the values. */
  readonly median: number;
  /** Smallest value. */
  readonly min: number;
  /** Largest value. */
  readonly max: number;
  /** 25th percentile (nearest rank). */
  readonly q1: number;
  /** 75th percentile (nearest rank). */
  readonly q3: number;
  /** The values in the order they were measured. */
  readonly values: readonly number[];
}

/** The {@link Spread} of per-repetition values (ratios, usually); throws like {@link summarize}. */
export function spreadOf(values: readonly number[]): Spread {
  const ordered = sorted(values);
  return {
    count: ordered.length,
    median: median(ordered),
    min: ordered[0] as number,
    max: ordered[ordered.length - 1] as number,
    q1: percentile(ordered, 25),
    q3: percentile(ordered, 75),
    values: [...values],
  };
}

/** Sum of the values (0 for none); throws for a non-finite value. */
export function sum(values: readonly number[]): number {
  let total = 0;
  for (const value of values) {
    if (!Number.isFinite(value)) throw new RangeError(`value ${String(value)} is not a finite number`);
    total += value;
  }
  return total;
}
