import { describe, expect, it } from 'vitest';
import { judge, toBenchResult } from './bench-result.js';
import { compareInterleaved, measureBatch, roundOrder, type InterleavedSamples } from './compare-interleaved.js';
import { checkRow, formatDuration, formatRatio, formatReport, formatSpread, goalsLine, resultRow } from './format-report.js';
import { parseBenchArgs } from './parse-bench-args.js';
import { reportProblems, type BenchReport } from './run-benchmarks.js';
import { assertWire, WireMismatchError, wireOf } from './wires.js';
import { meanRatio, pairedRatio, ratio } from './ratio.js';
import { runRepetitions, summarizeRepetitions } from './repetitions.js';
import { describeCorpus, loadSchemaCorpus, schemaKeywordUse } from './schema-corpus.js';
import { median, percentile, spreadOf, sum, summarize } from './summarize.js';

/** Samples of one repetition whose rounds all have the given ratios to a baseline of 1. */
function repetitionWith(wall: number, cpu: number, control?: { wall: number; cpu: number }): InterleavedSamples {
  return {
    subject: [wall, wall, wall],
    baseline: [1, 1, 1],
    ...(control ? { control: [control.wall, control.wall, control.wall] } : {}),
    cpu: {
      subject: [cpu * 100, cpu * 100],
      baseline: [100, 100],
      ...(control ? { control: [control.cpu * 100, control.cpu * 100] } : {}),
    },
  };
}

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

  it('gives the spread of per-repetition values: median, quartiles, range, values in measured order', () => {
    expect(spreadOf([1.1, 0.9, 1.0, 1.3, 1.05])).toEqual({
      count: 5,
      median: 1.05,
      min: 0.9,
      max: 1.3,
      q1: 1.0,
      q3: 1.1,
      values: [1.1, 0.9, 1.0, 1.3, 1.05],
    });
    expect(spreadOf([2])).toMatchObject({ median: 2, min: 2, max: 2, q1: 2, q3: 2 });
    expect(() => spreadOf([])).toThrow(RangeError);
  });

  it('sums values and rejects non-finite ones', () => {
    expect(sum([])).toBe(0);
    expect(sum([1, 2, 3.5])).toBe(6.5);
    expect(() => sum([1, Number.POSITIVE_INFINITY])).toThrow(RangeError);
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

  it('takes the ratio of the means for CPU time (total CPU of each side)', () => {
    expect(meanRatio([100, 300], [100, 100])).toBe(2);
    expect(meanRatio([150], [100, 100, 100])).toBe(1.5);
    expect(() => meanRatio([], [1])).toThrow(RangeError);
    expect(() => meanRatio([1], [0, 0])).toThrow(RangeError);
  });

  it('formats durations, ratios and spreads', () => {
    expect(formatDuration(1234)).toBe('1.23 s');
    expect(formatDuration(45.67)).toBe('45.7 ms');
    expect(formatDuration(0.00123)).toBe('1.23 µs');
    expect(formatRatio(1.0712)).toBe('1.07x');
    expect(formatRatio(0.0123)).toBe('0.012x');
    expect(formatSpread(spreadOf([1.02, 0.98, 1.1]))).toBe('1.02x (0.98-1.10)');
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
    expect(samples.control).toBeUndefined();
    expect(samples.cpu.subject).toHaveLength(3);
    expect(samples.cpu.baseline).toHaveLength(3);
  });

  it('with a control, puts every side in every position equally often over six rounds', async () => {
    const order: string[] = [];
    const samples = await compareInterleaved({
      subject: () => order.push('s'),
      baseline: () => order.push('b'),
      control: () => order.push('c'),
      warmup: 0,
      iterations: 6,
    });
    const rounds = order.join('').match(/.../g) ?? [];
    expect(new Set(rounds).size).toBe(6);
    for (const position of [0, 1, 2]) {
      expect(
        rounds
          .map((round) => round[position])
          .sort()
          .join(''),
      ).toBe('bbccss');
    }
    expect(samples.control).toHaveLength(6);
    expect(samples.cpu.control).toHaveLength(6);
    expect(roundOrder(2, 0)).toEqual([0, 1]);
    expect(roundOrder(2, 1)).toEqual([1, 0]);
  });

  it('runs each side its own batch size and stops at the time budget after the minimum rounds', async () => {
    let subjectRuns = 0;
    let baselineRuns = 0;
    let controlRuns = 0;
    const samples = await compareInterleaved({
      subject: async () => {
        subjectRuns += 1;
        await new Promise((resolve) => setTimeout(resolve, 2));
      },
      baseline: () => {
        baselineRuns += 1;
      },
      control: () => {
        controlRuns += 1;
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
    expect(controlRuns).toBe(20); // the control takes the baseline's batch size
    for (const sample of samples.subject) expect(sample).toBeGreaterThanOrEqual(1);
  });

  it('measures the CPU time of this process per run of a batch', async () => {
    const measured = await measureBatch(() => {
      let x = 0;
      for (let i = 0; i < 200_000; i += 1) x += Math.sqrt(i);
      return x;
    }, 4);
    expect(measured.cpuUs).toBeGreaterThan(0);
    expect(measured.wallMs).toBeGreaterThan(0);
    await expect(compareInterleaved({ subject: () => 1, baseline: () => 1, iterations: 0 })).rejects.toThrow(RangeError);
  });
});

describe('repetitions', () => {
  it('runs every repetition, or stops at the time budget after the minimum', async () => {
    const sample = repetitionWith(1, 1);
    const indices: number[] = [];
    const all = await runRepetitions({ repetitions: 5 }, async (index) => {
      indices.push(index);
      return sample;
    });
    expect(all).toHaveLength(5);
    expect(indices).toEqual([0, 1, 2, 3, 4]);
    const budgeted = await runRepetitions({ repetitions: 50, timeBudgetMs: 1, minRepetitions: 2 }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 3));
      return sample;
    });
    expect(budgeted).toHaveLength(2);
    await expect(runRepetitions({ repetitions: 0 }, async () => sample)).rejects.toThrow(RangeError);
  });

  it('summarises per-repetition wall, CPU and control ratios as a median with a range', () => {
    const summary = summarizeRepetitions([
      repetitionWith(1.1, 1.2, { wall: 1.0, cpu: 0.99 }),
      repetitionWith(1.0, 1.3, { wall: 1.02, cpu: 1.0 }),
      repetitionWith(1.3, 1.25, { wall: 0.97, cpu: 1.03 }),
    ]);
    expect(summary.repetitions).toBe(3);
    expect(summary.wallRatio).toMatchObject({ median: 1.1, min: 1.0, max: 1.3, values: [1.1, 1.0, 1.3] });
    expect(summary.cpuRatio.median).toBeCloseTo(1.25);
    expect(summary.controlWallRatio).toMatchObject({ median: 1.0, min: 0.97, max: 1.02 });
    expect(summary.controlCpuRatio?.median).toBeCloseTo(1.0);
    expect(summary.subject.stats.count).toBe(9);
    expect(summary.subject.cpuUs).toBeCloseTo(125);
    expect(summary.baseline.cpuUs).toBe(100);
    expect(summary.control?.stats.median).toBe(1.0);
  });

  it('has no control when a repetition lacks one, and refuses no repetitions', () => {
    const summary = summarizeRepetitions([repetitionWith(1, 1, { wall: 1, cpu: 1 }), repetitionWith(1, 1)]);
    expect(summary.control).toBeUndefined();
    expect(summary.controlWallRatio).toBeUndefined();
    expect(() => summarizeRepetitions([])).toThrow(RangeError);
  });

  it('judges median ratios against the goal, and the report shows PASS/FAIL in the one table', () => {
    expect(judge({ wallRatio: 1.05, cpuRatio: 1.1 }, 1.03, 1.12)).toEqual({
      pass: false,
      detail: 'wall 1.03x <= 1.05x, cpu 1.12x > 1.10x',
    });
    expect(judge({ wallRatio: 1.05, cpuRatio: 1.1 }, 1.05, 1.1).pass).toBe(true);
    const result = toBenchResult({
      id: 'callTool(stdio echo, 2026-07-28)',
      description: '',
      ratioName: 'toolhost/sdk',
      labels: { subject: 'host', baseline: 'sdk', control: 'sdk 2' },
      summary: summarizeRepetitions([repetitionWith(1.04, 1.2, { wall: 1.01, cpu: 1.0 })]),
      goal: { wallRatio: 1.05, cpuRatio: 1.1 },
      notes: ['a note'],
      revision: '2026-07-28',
    });
    expect(result.verdict).toEqual({ pass: false, detail: 'wall 1.04x <= 1.05x, cpu 1.20x > 1.10x' });
    expect(result.control?.label).toBe('sdk 2');
    expect(resultRow(result)).toEqual([
      'callTool(stdio echo, 2026-07-28)',
      '1',
      '2026-07-28',
      '1.04x (1.04-1.04)',
      '1.20x (1.20-1.20)',
      '1.01x (1.01-1.01) / 1.00x',
      '1.04 ms, 120 µs',
      '1.00 ms, 100 µs',
      'FAIL wall 1.04x <= 1.05x, cpu 1.20x > 1.10x',
    ]);
    const check = {
      id: 'image copy check(mapCallToolResult, 2 x 1 MB)',
      description: '',
      value: 300,
      unit: 'bytes retained per mapping',
      limit: 65536,
      verdict: { pass: true, detail: '300 B retained per mapping <= 64.0 KB' },
      details: {},
    };
    expect(checkRow(check).at(-1)).toBe('PASS 300 B retained per mapping <= 64.0 KB');
    const report: BenchReport = {
      environment: { node: 'v20', platform: 'linux/x64', cpus: 2, loadAverage: [1, 1, 1] },
      timeUnit: 'ms',
      startedAt: new Date(0).toISOString(),
      durationMs: 5,
      results: [result],
      checks: [check],
      failures: [{ benchmark: 'discovery', wire: '2026-07-28', message: 'WIRE MISMATCH: boom' }],
    };
    const text = formatReport(report);
    const tableLines = text.split('\n').filter((line) => line.startsWith('callTool(stdio echo') || line.startsWith('image copy check'));
    expect(tableLines).toHaveLength(2);
    expect(text).toMatch(/^benchmark +reps +negotiated +wall ratio \(min-max\) +cpu ratio \(min-max\) +control wall \/ cpu/m);
    expect(text).toContain('callTool(stdio echo, 2026-07-28): a note');
    expect(text).toContain('NOT MEASURED discovery (2026-07-28): WIRE MISMATCH: boom');
    expect(text.split('\n').slice(-3)).toEqual([
      'GOALS: FAIL (2 problems; exit code 1)',
      '  FAIL callTool(stdio echo, 2026-07-28): wall 1.04x <= 1.05x, cpu 1.20x > 1.10x; noise floor: control 1.01x (1.01-1.01)',
      '  FAIL discovery (2026-07-28) not measured: WIRE MISMATCH: boom',
    ]);
  });

  it('passes a run only when every goal and check passed and everything was measured', () => {
    const passing = toBenchResult({
      id: 'discovery(20 stdio, 2025-11-25)',
      description: '',
      ratioName: 'toolhost/sdk',
      labels: { subject: 'host', baseline: 'sdk' },
      summary: summarizeRepetitions([repetitionWith(1.02, 1.5)]),
      goal: { wallRatio: 1.05 },
      revision: '2025-11-25',
    });
    const noGoal = toBenchResult({
      id: 'discovery(20 stdio, 2025-11-25, NODE_EXTRA_CA_CERTS)',
      description: '',
      ratioName: 'toolhost/sdk',
      labels: { subject: 'host', baseline: 'sdk' },
      summary: summarizeRepetitions([repetitionWith(1.5, 1.5)]),
    });
    const failedCheck = {
      id: 'image copy check',
      description: '',
      value: 1e7,
      unit: 'bytes retained per mapping',
      limit: 65536,
      verdict: { pass: false, detail: '9.5 MB retained per mapping > 64.0 KB' },
      details: {},
    };
    const report = (overrides: Partial<BenchReport>): BenchReport => ({
      environment: { node: 'v20', platform: 'linux/x64', cpus: 2, loadAverage: [1, 1, 1] },
      timeUnit: 'ms',
      startedAt: new Date(0).toISOString(),
      durationMs: 5,
      results: [passing, noGoal],
      checks: [],
      failures: [],
      ...overrides,
    });
    expect(passing.verdict).toEqual({ pass: true, detail: 'wall 1.02x <= 1.05x' });
    expect(reportProblems(report({}))).toEqual([]);
    expect(goalsLine(report({}))).toBe('GOALS: PASS (1 of 1 goals and checks met, every wire as claimed)');
    expect(reportProblems(report({ checks: [failedCheck] }))).toEqual(['image copy check: 9.5 MB retained per mapping > 64.0 KB']);
    expect(reportProblems(report({ failures: [{ benchmark: 'call-tool', wire: '2025-11-25', message: 'x' }] }))).toEqual([
      'call-tool (2025-11-25) not measured: x',
    ]);
  });

  it('checks the negotiated revision against the wire', () => {
    expect(() => assertWire(wireOf('2025-11-25'), '2025-11-25', 'the host')).not.toThrow();
    expect(() => assertWire(wireOf('2026-07-28'), '2025-11-25', 'the host')).toThrow(WireMismatchError);
    expect(() => assertWire(wireOf('2026-07-28'), undefined, 'the SDK client')).toThrow(
      'WIRE MISMATCH: the SDK client negotiated no revision on the 2026-07-28 wire (fixture --era=modern)',
    );
    expect(() => wireOf('2024-11-05')).toThrow(/no wire for revision '2024-11-05'/);
  });
});

describe('the schema corpus', () => {
  it('counts $ref, $defs and definitions used as keywords, not as property names', () => {
    expect(
      schemaKeywordUse({
        type: 'object',
        properties: { $ref: { type: 'string' }, definitions: { $ref: '#/$defs/a' } },
        $defs: { a: { type: 'string' }, $ref: { type: 'number' } },
        items: [{ $ref: '#/$defs/a' }],
      }),
    ).toEqual({ $ref: 2, $defs: 1, definitions: 0 });
  });

  it('loads the checked-in corpus of real servers, whose numbers add up', () => {
    const corpus = loadSchemaCorpus();
    const counts = describeCorpus(corpus);
    expect(counts.tools).toBe(corpus.servers.reduce((total, server) => total + server.tools, 0));
    expect(counts.servers).toBeGreaterThanOrEqual(4);
    expect(counts.withAny).toBeLessThanOrEqual(counts.tools);
    for (const tool of corpus.tools) {
      expect(tool.inputSchema).toMatchObject({ type: 'object' });
      expect(corpus.servers.some((server) => server.server === tool.server && server.version === tool.version)).toBe(true);
    }
  });
});

describe('parseBenchArgs', () => {
  it('reads --json, --only, --scale and --reps, and rejects unknown benchmarks', () => {
    expect(parseBenchArgs([])).toMatchObject({
      json: false,
      scale: 1,
      repetitions: 5,
      only: ['discovery', 'discovery-ca', 'sanitize', 'call-tool', 'ai-sdk-call', 'map-image', 'image-copy'],
      wires: ['2025-11-25', '2026-07-28'],
    });
    expect(parseBenchArgs(['--json', '--only=sanitize,map-image', '--scale=0.5', '--reps=3', '--wire=2026-07-28'])).toEqual({
      json: true,
      only: ['sanitize', 'map-image'],
      wires: ['2026-07-28'],
      scale: 0.5,
      repetitions: 3,
      help: false,
    });
    expect(parseBenchArgs(['--wire', '2026-07-28,2025-11-25']).wires).toEqual(['2025-11-25', '2026-07-28']);
    expect(() => parseBenchArgs(['--wire=2024-11-05'])).toThrow(/unknown wire 2024-11-05/);
    expect(() => parseBenchArgs(['--only=nope'])).toThrow(/unknown benchmark nope/);
    expect(() => parseBenchArgs(['--scale=0'])).toThrow(/--scale/);
    expect(() => parseBenchArgs(['--reps=1.5'])).toThrow(/--reps/);
  });

  it("accepts '--only call-tool' and a '--' passed through by pnpm", () => {
    expect(parseBenchArgs(['--', '--only', 'call-tool']).only).toEqual(['call-tool']);
  });
});
