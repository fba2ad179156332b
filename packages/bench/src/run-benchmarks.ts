import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { benchCallTool } from './bench-call-tool.js';
import { benchDiscovery } from './bench-discovery.js';
import { benchMapImage } from './bench-map-image.js';
import type { BenchResult } from './bench-result.js';
import { benchSanitize } from './bench-sanitize.js';

/** The benchmarks {@link runBenchmarks} knows, in the order they run. */
export const BENCHMARK_NAMES = ['discovery', 'sanitize', 'call-tool', 'map-image'] as const;

/** Name of one benchmark. */
export type BenchmarkName = (typeof BENCHMARK_NAMES)[number];

/** Options of {@link runBenchmarks}. */
export interface RunBenchmarksOptions {
  /** Which benchmarks to run. @default all of {@link BENCHMARK_NAMES} */
  readonly only?: readonly BenchmarkName[];
  /** Multiplies every iteration count (0.1 for a smoke run); at least one iteration is kept. @default 1 */
  readonly scale?: number;
  /** Called when a benchmark starts (for progress output). */
  readonly onStart?: (name: BenchmarkName) => void;
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
  };
  /** Unit of every time in the report. */
  readonly timeUnit: 'ms';
  /** ISO time the run started. */
  readonly startedAt: string;
  /** Wall time of the whole run, in milliseconds. */
  readonly durationMs: number;
  /** Results in run order. */
  readonly results: BenchResult[];
  /** Benchmarks that failed. */
  readonly failures: BenchFailure[];
}

/** Run the benchmarks one after another (never in parallel, so they do not disturb each other). */
export async function runBenchmarks(options: RunBenchmarksOptions = {}): Promise<BenchReport> {
  const scale = options.scale ?? 1;
  const n = (count: number) => Math.max(1, Math.round(count * scale));
  const jobs: Record<BenchmarkName, () => Promise<BenchResult | BenchResult[]>> = {
    discovery: () => benchDiscovery({ iterations: n(6) }),
    sanitize: () => benchSanitize({ iterations: n(100) }),
    'call-tool': () => benchCallTool({ iterations: n(200), warmup: n(30) }),
    'map-image': () => benchMapImage({ iterations: n(40) }),
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
  const failures: BenchFailure[] = [];
  for (const name of options.only ?? BENCHMARK_NAMES) {
    options.onStart?.(name);
    try {
      results.push(...[await jobs[name]()].flat());
    } catch (error) {
      failures.push({ benchmark: name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return { environment, timeUnit: 'ms', startedAt, durationMs: performance.now() - start, results, failures };
}
