import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { benchAiSdkCall } from './bench-ai-sdk-call.js';
import { benchCallTool } from './bench-call-tool.js';
import { benchDiscovery, findCaBundle } from './bench-discovery.js';
import { benchImageCopy } from './bench-image-copy.js';
import { benchMapImage } from './bench-map-image.js';
import type { BenchResult, CheckResult } from './bench-result.js';
import { benchSanitize } from './bench-sanitize.js';
import { WIRE_REVISIONS, wireOf, type WireRevision } from './wires.js';

/** The benchmarks {@link runBenchmarks} knows, in the order they run. */
export const BENCHMARK_NAMES = ['discovery', 'discovery-ca', 'sanitize', 'call-tool', 'ai-sdk-call', 'map-image', 'image-copy'] as const;

/** Name of one benchmark. */
export type BenchmarkName = (typeof BENCHMARK_NAMES)[number];

/** The benchmarks that run once per wire (MCP revision), each wire its own row. */
export const PER_WIRE_BENCHMARKS: readonly BenchmarkName[] = ['discovery', 'call-tool'];

/**
 * The benchmarks that run on one wire only, the newest selected: what they show (the cost of
 * `NODE_EXTRA_CA_CERTS` in toolhost's children) does not depend on the revision.
 */
export const NEWEST_WIRE_BENCHMARKS: readonly BenchmarkName[] = ['discovery-ca'];

/** Options of {@link runBenchmarks}. */
export interface RunBenchmarksOptions {
  /** Which benchmarks to run. @default all of {@link BENCHMARK_NAMES} */
  readonly only?: readonly BenchmarkName[];
  /** Multiplies every round count (0.2 for a smoke run); at least one round is kept. @default 1 */
  readonly scale?: number;
  /** Independent repetitions of every comparison. @default 5 */
  readonly repetitions?: number;
  /** The wires the process benchmarks run on. @default every one of {@link WIRE_REVISIONS} */
  readonly wires?: readonly WireRevision[];
  /** Called when a benchmark starts (for progress output); `wire` for the per-wire ones. */
  readonly onStart?: (name: BenchmarkName, wire?: WireRevision) => void;
  /** Called when a benchmark ends, with its wall time in milliseconds. */
  readonly onEnd?: (name: BenchmarkName, durationMs: number, wire?: WireRevision) => void;
}

/** A benchmark that threw instead of producing numbers. */
export interface BenchFailure {
  /** Which benchmark. */
  readonly benchmark: BenchmarkName;
  /** The wire it ran on, for the per-wire ones. */
  readonly wire?: WireRevision;
  /** The error message. */
  readonly message: string;
}

/** Everything one run measured, plus where it ran. */
export interface BenchReport {
  /** Where the numbers come from. */
  readonly environment: {
    /** `process.version`. */
    readonly node: string;
    /** `process.platform`/`process.arch`. */
    readonly platform: string;
    /** Logical CPUs. */
    readonly cpus: number;
    /** 1, 5 and 15 minute load averages when the run started. */
    readonly loadAverage: readonly number[];
    /** 1, 5 and 15 minute load averages when the run ended. */
    readonly loadAverageAtEnd?: readonly number[];
  };
  /** Unit of wall times in the report (CPU times are in microseconds). */
  readonly timeUnit: 'ms';
  /** ISO time the run started. */
  readonly startedAt: string;
  /** Wall time of the whole run, in milliseconds. */
  readonly durationMs: number;
  /** Comparisons in run order. */
  readonly results: BenchResult[];
  /** Checks against a limit (the image copy check). */
  readonly checks: CheckResult[];
  /** Benchmarks that failed. */
  readonly failures: BenchFailure[];
}

/** Run the benchmarks one after another (never in parallel, so they do not disturb each other), the per-wire ones once per wire. */
export async function runBenchmarks(options: RunBenchmarksOptions = {}): Promise<BenchReport> {
  const scale = options.scale ?? 1;
  const repetitions = options.repetitions ?? 5;
  const wires = options.wires ?? WIRE_REVISIONS;
  const n = (count: number) => Math.max(1, Math.round(count * scale));
  // 20 s of discovery per repetition asked for (100 s for the default 5): more --reps buys precision.
  const discoveryBudgetMs = 20_000 * repetitions * scale;
  const jobs: Record<BenchmarkName, (revision: WireRevision) => Promise<BenchResult | BenchResult[] | CheckResult>> = {
    discovery: (revision) => benchDiscovery({ wire: wireOf(revision), repetitions, rounds: n(2), timeBudgetMs: discoveryBudgetMs }),
    'discovery-ca': (revision) => {
      const bundle = findCaBundle();
      if (!bundle) throw new Error('no PEM bundle found for NODE_EXTRA_CA_CERTS (set it in the environment of the bench)');
      return benchDiscovery({
        wire: wireOf(revision),
        repetitions,
        rounds: n(2),
        extraCaCertificates: bundle,
        timeBudgetMs: discoveryBudgetMs,
      });
    },
    sanitize: () => benchSanitize({ repetitions, rounds: n(12) }),
    'call-tool': (revision) => benchCallTool({ wire: wireOf(revision), repetitions, rounds: n(60), warmupRounds: n(20) }),
    // On the 2025-11-25 wire whatever --wire says: @ai-sdk/mcp negotiates with initialize only.
    'ai-sdk-call': () => benchAiSdkCall({ repetitions, rounds: n(60), warmupRounds: n(20) }),
    'map-image': () => benchMapImage({ repetitions, rounds: n(8) }),
    'image-copy': async () => benchImageCopy({ mappings: n(200) }),
  };
  const environment = {
    node: process.version,
    platform: `${process.platform}/${process.arch}`,
    cpus: cpus().length,
    loadAverage: loadavg(),
  };
  const startedAt = new Date().toISOString();
  const start = performance.now();
  const results: BenchResult[] = [];
  const checks: CheckResult[] = [];
  const failures: BenchFailure[] = [];
  for (const name of options.only ?? BENCHMARK_NAMES) {
    const runOn = PER_WIRE_BENCHMARKS.includes(name) ? wires : NEWEST_WIRE_BENCHMARKS.includes(name) ? wires.slice(-1) : [undefined];
    for (const wire of runOn) {
      options.onStart?.(name, wire);
      const benchmarkStart = performance.now();
      try {
        for (const outcome of [await jobs[name](wire ?? (WIRE_REVISIONS[0] as WireRevision))].flat()) {
          if ('verdict' in outcome && 'limit' in outcome) checks.push(outcome);
          else results.push(outcome as BenchResult);
        }
      } catch (error) {
        failures.push({ benchmark: name, ...(wire ? { wire } : {}), message: error instanceof Error ? error.message : String(error) });
      }
      options.onEnd?.(name, performance.now() - benchmarkStart, wire);
    }
  }
  return {
    environment: { ...environment, loadAverageAtEnd: loadavg() },
    timeUnit: 'ms',
    startedAt,
    durationMs: performance.now() - start,
    results,
    checks,
    failures,
  };
}

/** `; noise floor: control 0.99x (0.91-1.01)` for a comparison with a control, to read a miss against. */
function noiseFloor(result: BenchResult): string {
  const control = result.controlWallRatio;
  if (!control) return '';
  const bound = (value: number) => value.toFixed(2);
  return `; noise floor: control ${bound(control.median)}x (${bound(control.min)}-${bound(control.max)})`;
}

/**
 * Every missed goal and failed check of a report, one line each (`callTool(stdio echo,
 * 2026-07-28): wall 1.08x > 1.05x`), plus every benchmark that could not be measured (a wire
 * mismatch among them). Empty when the run passed: `pnpm bench` exits 1 otherwise.
 */
export function reportProblems(report: BenchReport): string[] {
  return [
    ...report.results.flatMap((result) =>
      result.verdict && !result.verdict.pass ? [`${result.id}: ${result.verdict.detail}${noiseFloor(result)}`] : [],
    ),
    ...report.checks.flatMap((check) => (check.verdict.pass ? [] : [`${check.id}: ${check.verdict.detail}`])),
    ...report.failures.map((failure) => `${failure.benchmark}${failure.wire ? ` (${failure.wire})` : ''} not measured: ${failure.message}`),
  ];
}
