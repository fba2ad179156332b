import { describe, expect, it } from 'vitest';
import { compareInterleaved } from './compare-interleaved.js';
import { formatDuration, formatRatio, formatRatioLine } from './format-report.js';
import { parseBenchArgs } from './parse-bench-args.js';
import { pairedRatio, ratio } from './ratio.js';
import { median, percentile, summarize } from './summarize.js';

describe('statistics helpers', () => {
  it('computes the median of odd and even sample counts, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it('computes nearest-rank percentiles', () => {
    const samples = Array.from({ length: 10 }, (_, i) => 10 - i); // 10..1
    expect(percentile(samples, 90)).toBe(9);
    expect(percentile(samples, 100)).toBe(10);
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile([1, 2, 3, 4, 100], 90)).toBe(100);
  });

  it('summarises samples without reordering the input', () => {
    const samples = [3, 1, 2, 10];
    expect(summarize(samples)).toEqual({ count: 4, median: 2.5, p90: 10, min: 1, max: 10, mean: 4 });
    expect(samples).toEqual([3, 1, 2, 10]);
  });

  it('rejects empty or non-finite samples and bad ratios', () => {
    expect(() => median([])).toThrow(RangeError);
    expect(() => summarize([1, Number.NaN])).toThrow(RangeError);
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(() => ratio(1, 0)).toThrow(RangeError);
    expect(ratio(3, 2)).toBe(1.5);
  });

  it('takes the median of per-round ratios for paired samples', () => {
    // Round ratios 2, 1.5, 4: a load spike in round 3 inflates both sides but not the paired median.
    expect(pairedRatio([2, 3, 400], [1, 2, 100])).toBe(2);
    expect(() => pairedRatio([1, 2], [1])).toThrow(RangeError);
  });

  it('formats durations, ratios and the ratio line', () => {
    expect(formatDuration(1234)).toBe('1.23 s');
    expect(formatDuration(45.67)).toBe('45.7 ms');
    expect(formatDuration(0.00123)).toBe('1.23 µs');
    expect(formatRatio(1.0712)).toBe('1.07x');
    const stats = summarize([1]);
    const line = formatRatioLine({
      id: 'discovery(20 stdio)',
      description: '',
      subject: { label: 'a', stats },
      baseline: { label: 'b', stats },
      ratioName: 'toolhost/sdk',
      ratio: 1.07,
      pairedRatio: 1.049,
    });
    expect(line).toBe('discovery(20 stdio) toolhost/sdk = 1.07x (paired 1.05x)');
  });
});

describe('compareInterleaved', () => {
  it('alternates which side runs first and runs the warm-up untimed', async () => {
    const order: string[] = [];
    const samples = await compareInterleaved({
      subject: () => order.push('s'),
      baseline: () => order.push('b'),
      warmup: 1,
      iterations: 3,
    });
    expect(order.join('')).toBe('sb' + 'sb' + 'bs' + 'sb');
    expect(samples.subject).toHaveLength(3);
    expect(samples.baseline).toHaveLength(3);
  });

  it('runs each side its own batch size and stops at the time budget after the minimum rounds', async () => {
    let subjectRuns = 0;
    let baselineRuns = 0;
    const samples = await compareInterleaved({
      subject: async () => {
        subjectRuns += 1;
        await new Promise((resolve) => setTimeout(resolve, 2));
      },
      baseline: () => {
        baselineRuns += 1;
      },
      warmup: 0,
      iterations: 1000,
      batch: { subject: 2, baseline: 5 },
      timeBudgetMs: 1,
      minIterations: 4,
    });
    expect(samples.subject).toHaveLength(4);
    expect(subjectRuns).toBe(8);
    expect(baselineRuns).toBe(20);
    for (const sample of samples.subject) expect(sample).toBeGreaterThanOrEqual(1);
  });
});

describe('parseBenchArgs', () => {
  it('reads --json, --only and --scale, and rejects unknown benchmarks', () => {
    expect(parseBenchArgs([])).toMatchObject({ json: false, scale: 1, only: ['discovery', 'sanitize', 'call-tool', 'map-image'] });
    expect(parseBenchArgs(['--json', '--only=sanitize,map-image', '--scale=0.5'])).toEqual({
      json: true,
      only: ['sanitize', 'map-image'],
      scale: 0.5,
      help: false,
    });
    expect(() => parseBenchArgs(['--only=nope'])).toThrow(/unknown benchmark nope/);
    expect(() => parseBenchArgs(['--scale=0'])).toThrow(/--scale/);
  });
});
