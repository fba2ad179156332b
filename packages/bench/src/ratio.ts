import { mean, median } from './summarize.js';

/** `subject / baseline`: above 1 means the subject takes longer than the baseline. */
export function ratio(subject: number, baseline: number): number {
  if (!(baseline > 0) || !Number.isFinite(baseline)) throw new RangeError(`baseline ${baseline} must be a positive finite number`);
  if (!(subject >= 0) || !Number.isFinite(subject)) throw new RangeError(`subject ${subject} must be a non-negative finite number`);
  return subject / baseline;
}

/**
 * Median of the per-round ratios `subject[i] / baseline[i]` of interleaved samples: robust to
 * load that changes between rounds, since both sides of one round ran under the same load.
 */
export function pairedRatio(subject: readonly number[], baseline: readonly number[]): number {
  if (subject.length !== baseline.length) throw new RangeError(`paired samples differ in length: ${subject.length} and ${baseline.length}`);
  return median(subject.map((value, i) => ratio(value, baseline[i] as number)));
}

/**
 * Ratio of the means, `mean(subject) / mean(baseline)`: for CPU time per run measured over
 * batches of the same size, the ratio of the total CPU time each side used.
 */
export function meanRatio(subject: readonly number[], baseline: readonly number[]): number {
  if (subject.length === 0 || baseline.length === 0) throw new RangeError('cannot take the ratio of an empty list of samples');
  return ratio(mean(subject), mean(baseline));
}
