import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { benchCallTool } from './bench-call-tool.js';
import { benchDiscovery, findCaBundle } from './bench-discovery.js';
import { benchImageCopy } from './bench-image-copy.js';
import { benchMapImage } from './bench-map-image.js';
import type { BenchResult, CheckResult } from './bench-result.js';
import { benchSanitize } from './bench-sanitize.js';

/** The benchmarks {@link runBenchmarks} knows, in the order they run. */
export const BENCHMARK_NAMES = ['discovery', 'discovery-ca', 'sanitize', 'call-tool', 'map-image', 'image-copy'] as const;

/** Name of one benchmark. */
export type BenchmarkName = (typeof BENCHMARK_NAMES)[number];

/** Options of {@link runBenchmarks}. */
export interface RunBenchmarksOptions {
  /** Which benchmarks to run. @default all of {@link BENCHMARK_NAMES} */
  readonly only?: readonly BenchmarkName[];
  /** Multiplies every round count (0.2 for a smoke run); at least one round is kept. @default 1 */
  readonly scale?: number;
  /** Independent repetitions of every comparison. @default 5 */
  readonly repetitions?: number;
  /** Called when a benchmark starts (for progress output). */
  readonly onStart?: (name: BenchmarkName) => void;
  /** Called when a benchmark ends, with its wall time in milliseconds. */
  readonly onEnd?: (name: BenchmarkName, durationMs: number) => void;
}

/** A benchmark that threw instead of producing numbers. */
export interface BenchFailure {
  /** Which benchmark. */
  readonly benchmark: BenchmarkName;
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

/** Run the benchmarks one after another (never in parallel, so they do not disturb each other). */
export async function runBenchmarks(options: RunBenchmarksOptions = {}): Promise<BenchReport> {
  const scale = options.scale ?? 1;
  const repetitions = options.repetitions ?? 5;
  const n = (count: number) => Math.max(1, Math.round(count * scale));
  const jobs: Record<BenchmarkName, () => Promise<BenchResult | BenchResult[] | CheckResult>> = {
    discovery: () => benchDiscovery({ repetitions, rounds: n(2) }),
    'discovery-ca': () => {
      const bundle = findCaBundle();
      if (!bundle) throw new Error('no PEM bundle found for NODE_EXTRA_CA_CERTS (set it in the environment of the bench)');
      return benchDiscovery({ repetitions, rounds: n(2), extraCaCertificates: bundle });
    },
    sanitize: () => benchSanitize({ repetitions, rounds: n(12) }),
    'call-tool': () => benchCallTool({ repetitions, rounds: n(60), warmupRounds: n(20) }),
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
    options.onStart?.(name);
    const benchmarkStart = performance.now();
    try {
      for (const outcome of [await jobs[name]()].flat()) {
        if ('verdict' in outcome && 'limit' in outcome) checks.push(outcome);
        else results.push(outcome as BenchResult);
      }
    } catch (error) {
      failures.push({ benchmark: name, message: error instanceof Error ? error.message : String(error) });
    }
    options.onEnd?.(name, performance.now() - benchmarkStart);
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
