import { describe, expect, it } from 'vitest';
import { formatScaleReport, formatScaleRun, summarizeScale } from './format-scale-report.js';
import { parseScaleArgs } from './parse-scale-args.js';
import { runScale, type ScaleRun, type ScaleSide } from './run-scale.js';
import {
  countedBytes,
  judgeScale,
  latencySummary,
  medianSample,
  memoryPerHost,
  openLoopSchedule,
  p99Ratio,
  pairedP99Ratio,
  SCALE_GOAL,
  sliceSchedule,
  toKb,
} from './scale-stats.js';
import { WIRE_REVISIONS, type WireRevision } from './wires.js';

const KB = 1024;

function side(label: string, p99: number, sliceStretch = 1): ScaleSide {
  return { label, latency: { count: 5000, p50: p99 / 4, p90: p99 / 2, p99, max: p99 * 2 }, cpuUsPerRequest: 800, sliceStretch };
}

/** A measured revision whose host side uses `overRawKb` more per host than raw and whose host p99 is `ratio` x the raw one (4 ms). */
function runWith(revision: WireRevision, overRawKb: number, ratio: number, stretch = 1): ScaleRun {
  const perHost = (kb: number) => ({ bytes: kb * KB, heapUsed: kb * KB, external: 0, arrayBuffers: 0, rss: kb * KB });
  const overRawBytes = overRawKb * KB;
  return {
    revision,
    hosts: 200,
    rate: 500,
    durationMs: 10_000,
    sliceMs: 500,
    environment: { node: 'v20.0.0', cpus: 2, loadAverage: [1, 1, 1], loadAverageAtEnd: [1, 1, 1] },
    memory: {
      empty: { heapUsed: 50e6, external: 2e6, arrayBuffers: 1e5, rss: 120e6 },
      raw: perHost(90),
      host: perHost(90 + overRawKb),
      overRawBytes,
      samples: 5,
    },
    latency: {
      host: side('McpToolHost.callTool', 4 * ratio, stretch),
      raw: side('SDK client.callTool', 4),
      control: side('SDK client.callTool (control)', 4.1),
      p99Ratio: ratio,
      controlP99Ratio: 1.02,
      roundP99Ratio: ratio,
      controlRoundP99Ratio: 1.01,
    },
    goal: SCALE_GOAL,
    verdict: judgeScale(SCALE_GOAL, overRawBytes, ratio),
    wallMs: 60_000,
  };
}

describe('parseScaleArgs', () => {
  it('defaults to 200 hosts at 500 req/s for 10 s per side on both revisions, goals printed only', () => {
    expect(parseScaleArgs([])).toEqual({
      hosts: 200,
      rate: 500,
      durationS: 10,
      warmupS: 2,
      sliceMs: 500,
      revisions: [...WIRE_REVISIONS],
      check: false,
      json: false,
      help: false,
    });
  });

  it("reads every option, in '--name value' and '--name=value' form, and ignores a '--' passed through by pnpm", () => {
    expect(
      parseScaleArgs([
        '--',
        '--hosts',
        '1000',
        '--rate=250',
        '--duration',
        '5',
        '--warmup=0',
        '--slice',
        '250',
        '--revision',
        '2026-07-28',
        '--check',
        '--json',
      ]),
    ).toEqual({
      hosts: 1000,
      rate: 250,
      durationS: 5,
      warmupS: 0,
      sliceMs: 250,
      revisions: ['2026-07-28'],
      check: true,
      json: true,
      help: false,
    });
    expect(parseScaleArgs(['--revision', 'both']).revisions).toEqual(['2025-11-25', '2026-07-28']);
    expect(parseScaleArgs(['--revision=2025-11-25']).revisions).toEqual(['2025-11-25']);
    expect(parseScaleArgs(['-h']).help).toBe(true);
  });

  it('rejects bad values with a message naming the option and the value', () => {
    expect(() => parseScaleArgs(['--hosts', '0'])).toThrow("--hosts must be a positive whole number, not '0'");
    expect(() => parseScaleArgs(['--hosts', '2.5'])).toThrow("--hosts must be a positive whole number, not '2.5'");
    expect(() => parseScaleArgs(['--rate', 'fast'])).toThrow("--rate must be a positive number, not 'fast'");
    expect(() => parseScaleArgs(['--duration=-1'])).toThrow("--duration must be a positive number, not '-1'");
    expect(() => parseScaleArgs(['--warmup=-1'])).toThrow("--warmup must be zero or a positive number, not '-1'");
    expect(() => parseScaleArgs(['--revision', '2024-11-05'])).toThrow(
      "--revision must be 2025-11-25, 2026-07-28 or both, not '2024-11-05'",
    );
    expect(() => parseScaleArgs(['--servers', '3'])).toThrow(/servers/);
  });
});

describe('scale arithmetic', () => {
  it('counts heap used + external (arrayBuffers are part of external) and takes the median of GC samples field by field', () => {
    expect(countedBytes({ heapUsed: 100, external: 30, arrayBuffers: 20, rss: 999 })).toBe(130);
    expect(
      medianSample([
        { heapUsed: 300, external: 1, arrayBuffers: 0, rss: 5 },
        { heapUsed: 100, external: 3, arrayBuffers: 2, rss: 9 },
        { heapUsed: 200, external: 2, arrayBuffers: 1, rss: 1 },
      ]),
    ).toEqual({ heapUsed: 200, external: 2, arrayBuffers: 1, rss: 5 });
    expect(() => medianSample([])).toThrow(RangeError);
  });

  it('divides the growth between two samples by the host count', () => {
    const before = { heapUsed: 10_000, external: 1_000, arrayBuffers: 100, rss: 50_000 };
    const after = { heapUsed: 30_000, external: 3_000, arrayBuffers: 300, rss: 90_000 };
    expect(memoryPerHost(before, after, 10)).toEqual({ bytes: 2_200, heapUsed: 2_000, external: 200, arrayBuffers: 20, rss: 4_000 });
    expect(() => memoryPerHost(before, after, 0)).toThrow(RangeError);
    expect(toKb(150 * KB + 100)).toBe(150);
    expect(toKb(-3 * KB)).toBe(-3);
  });

  it('takes nearest-rank latency percentiles and the ratio of the p99s', () => {
    const latencies = Array.from({ length: 200 }, (_, i) => 200 - i); // 200..1 ms
    expect(latencySummary(latencies)).toEqual({ count: 200, p50: 100, p90: 180, p99: 198, max: 200 });
    const slower = latencySummary(latencies.map((value) => value * 1.5));
    expect(p99Ratio(slower, latencySummary(latencies))).toBeCloseTo(1.5, 10);
    expect(() => latencySummary([])).toThrow(RangeError);
  });

  it('takes the median of per-round p99 ratios, unmoved by a round where load hit both sides', () => {
    const round = (scale: number) => Array.from({ length: 100 }, (_, i) => (i + 1) * scale);
    // Ratios 1.1, 1.2 and, in a round where everything was 50x slower, 1.0: the median is 1.1.
    expect(pairedP99Ratio([round(1.1), round(1.2), round(50)], [round(1), round(1), round(50)])).toBeCloseTo(1.1, 10);
    // A last slice too short for any request on one side is left out.
    expect(pairedP99Ratio([round(1.1), [], round(1.3)], [round(1), round(1), []])).toBeCloseTo(1.1, 10);
    expect(() => pairedP99Ratio([round(1)], [])).toThrow(RangeError);
    expect(() => pairedP99Ratio([], [])).toThrow(RangeError);
  });

  it('judges memory over raw and the p99 ratio against the goals, each limit inclusive', () => {
    expect(SCALE_GOAL).toEqual({ memoryOverRawBytes: 200 * KB, p99Ratio: 1.1 });
    expect(judgeScale(SCALE_GOAL, 200 * KB, 1.1)).toEqual({ pass: true, detail: 'memory 200 KB <= 200 KB, p99 1.10 <= 1.10' });
    expect(judgeScale(SCALE_GOAL, 201 * KB, 1.0)).toEqual({ pass: false, detail: 'memory 201 KB > 200 KB, p99 1.00 <= 1.10' });
    expect(judgeScale(SCALE_GOAL, 10 * KB, 1.25)).toEqual({ pass: false, detail: 'memory 10 KB <= 200 KB, p99 1.25 > 1.10' });
  });

  it('changes the order of the sides every slice round, each side in each position equally often', () => {
    expect(sliceSchedule(2, 3)).toEqual([
      [0, 1],
      [1, 0],
      [0, 1],
    ]);
    const rounds = sliceSchedule(3, 6);
    for (let position = 0; position < 3; position += 1) {
      expect(rounds.map((order) => order[position]).sort()).toEqual([0, 0, 1, 1, 2, 2]);
    }
    expect(() => sliceSchedule(4, 1)).toThrow(RangeError);
  });

  it('schedules open-loop sends at a fixed interval, rate x duration of them', () => {
    expect(openLoopSchedule(500, 10, 100)).toEqual([100, 102, 104, 106, 108]);
    expect(openLoopSchedule(500, 500)).toHaveLength(250);
    expect(openLoopSchedule(3, 1000)).toEqual([0, 1000 / 3, 2000 / 3]);
    expect(openLoopSchedule(100, 0)).toEqual([]);
    expect(() => openLoopSchedule(0, 100)).toThrow(RangeError);
  });
});

describe('the bench:scale report', () => {
  it('prints the two required lines with the larger figure of the revisions, each revision beside it, and the verdict', () => {
    const runs = [runWith('2025-11-25', 40, 1.03), runWith('2026-07-28', 55, 0.98)];
    const { text, summary } = formatScaleReport({ runs, failures: [], hosts: 200, check: false });
    expect(summary).toEqual({ pass: true, memoryOverRawKb: 55, p99Ratio: 1.03 });
    const lines = text.split('\n');
    expect(lines).toContain('per-host memory over raw: 55 KB (2025-11-25: 40 KB, 2026-07-28: 55 KB; the larger shown)');
    expect(lines).toContain('p99 ratio: 1.03 (2025-11-25: 1.03, 2026-07-28: 0.98; the larger shown)');
    expect(lines).toContain(
      'GOALS <= 200 KB per host over raw, p99 ratio <= 1.10 (set for 200 hosts): PASS (printed only; --check makes a miss exit 1)',
    );
    expect(
      lines.filter((line) =>
        /^2025-11-25: 200 hosts, 500 req\/s per side for 10 s in 500 ms slices: memory over raw 40 KB per host, p99 ratio 1\.03 \(control 1\.02; per-round median 1\.03, control 1\.01\): PASS/.test(
          line,
        ),
      ),
    ).toHaveLength(1);
    expect(text).not.toContain('SATURATED');
  });

  it('shows one revision alone, a FAIL naming the missed goal, and no "printed only" with --check', () => {
    const { text, summary } = formatScaleReport({ runs: [runWith('2026-07-28', 250, 1.2)], failures: [], hosts: 200, check: true });
    expect(summary).toEqual({ pass: false, memoryOverRawKb: 250, p99Ratio: 1.2 });
    expect(text).toContain('per-host memory over raw: 250 KB (2026-07-28)\np99 ratio: 1.20 (2026-07-28)\n');
    expect(text).toContain('(set for 200 hosts): FAIL (2026-07-28: memory 250 KB > 200 KB, p99 1.20 > 1.10)\n');
  });

  it('reports a revision that could not be measured, and fails the summary', () => {
    const failures = [{ revision: '2025-11-25' as const, message: 'WIRE MISMATCH: ...' }];
    const { text, summary } = formatScaleReport({ runs: [runWith('2026-07-28', 30, 1)], failures, hosts: 200, check: false });
    expect(summary.pass).toBe(false);
    expect(text).toContain('NOT MEASURED 2025-11-25: WIRE MISMATCH: ...');
    expect(text).toContain('FAIL (2025-11-25 not measured)');
    expect(summarizeScale([], failures)).toEqual({ pass: false, memoryOverRawKb: undefined, p99Ratio: undefined });
    expect(formatScaleReport({ runs: [], failures, hosts: 200, check: false }).text).not.toContain('per-host memory over raw');
  });

  it('shows both sides per host and per request, and flags a side that could not keep up with the rate', () => {
    const lines = formatScaleRun(runWith('2025-11-25', 40, 1.5, 1.8));
    expect(lines[2]).toBe(
      '    McpToolHost (created, discovered)  130 KB  (heap 130 KB + external 0 KB, of which arrayBuffers 0 KB; rss 130 KB)',
    );
    expect(lines[3]).toBe(
      '    raw SDK Client (connected, listed) 90 KB  (heap 90 KB + external 0 KB, of which arrayBuffers 0 KB; rss 90 KB)',
    );
    expect(lines[5]).toMatch(
      /^ {4}McpToolHost\.callTool +p50 1\.50 ms, p90 3\.00 ms, p99 6\.00 ms, max 12\.0 ms; cpu 800 µs\/request; slices 1\.80x planned; 5000 answers checked$/,
    );
    expect(lines.at(-1)).toMatch(/^ {2}SATURATED: McpToolHost\.callTool could not keep up with 500 req\/s/);
  });
});

// A tiny real run per revision: checks that every side was measured as claimed (answers, revision,
// memory figures); it never judges the numbers, which `pnpm bench:scale` does.
describe('a tiny bench:scale run', () => {
  it('refuses a rate and slice so small that no request fits in a slice', async () => {
    await expect(runScale({ revision: '2026-07-28', hosts: 1, rate: 1, durationMs: 200, sliceMs: 100 })).rejects.toThrow(
      'no request fits in a slice: 1 req/s for 100 ms; raise --rate, --slice or --duration',
    );
  });

  it.each(WIRE_REVISIONS)(
    'on %s: 2 McpToolHosts and 2 raw SDK clients, each on its own Streamable HTTP server, every answer checked',
    async (revision) => {
      const run = await runScale({ revision, hosts: 2, rate: 50, durationMs: 200, warmupMs: 0, sliceMs: 100, memorySamples: 1 });
      expect(run.revision).toBe(revision);
      expect(run.hosts).toBe(2);
      for (const measured of [run.latency.host, run.latency.raw, run.latency.control]) {
        expect(measured.latency.count).toBe(10); // 2 slices x round(50 req/s x 100 ms)
        expect(measured.latency.p50).toBeGreaterThan(0);
        expect(measured.latency.p99).toBeGreaterThanOrEqual(measured.latency.p50);
        expect(measured.cpuUsPerRequest).toBeGreaterThan(0);
      }
      expect(run.latency.p99Ratio).toBeCloseTo(run.latency.host.latency.p99 / run.latency.raw.latency.p99, 10);
      for (const value of [run.latency.roundP99Ratio, run.latency.controlP99Ratio, run.latency.controlRoundP99Ratio])
        expect(value).toBeGreaterThan(0);
      for (const value of [run.memory.host.bytes, run.memory.raw.bytes, run.memory.overRawBytes]) expect(Number.isFinite(value)).toBe(true);
      expect(run.memory.overRawBytes).toBeCloseTo(run.memory.host.bytes - run.memory.raw.bytes, 6);
      expect(run.verdict.detail).toMatch(/^memory -?\d+ KB (<=|>) 200 KB, p99 [\d.]+ (<=|>) 1\.10$/);
    },
  );
});
