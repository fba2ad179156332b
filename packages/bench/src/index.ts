// Public API of @toolhost-internal/bench: the benchmark functions and the statistics helpers behind `pnpm bench`.
export { median, percentile, summarize, ratio, pairedRatio } from './stats.js';
export type { SampleStats } from './stats.js';
export { compareInterleaved, timeBatch } from './compare-interleaved.js';
export type { BenchTask, CompareInterleavedOptions, InterleavedSamples } from './compare-interleaved.js';
export type { BenchResult, BenchSide } from './bench-result.js';
export { benchDiscovery } from './bench-discovery.js';
export type { BenchDiscoveryOptions } from './bench-discovery.js';
export { benchSanitize, CORPUS_SIZE } from './bench-sanitize.js';
export type { BenchSanitizeOptions } from './bench-sanitize.js';
export { benchCallTool } from './bench-call-tool.js';
export type { BenchCallToolOptions } from './bench-call-tool.js';
export { benchMapImage } from './bench-map-image.js';
export type { BenchMapImageOptions } from './bench-map-image.js';
export { runBenchmarks, BENCHMARK_NAMES } from './run-benchmarks.js';
export type { BenchmarkName, BenchReport, BenchFailure, RunBenchmarksOptions } from './run-benchmarks.js';
export { formatReport, formatRatioLine, formatDuration, formatRatio } from './format-report.js';
export { parseBenchArgs, BENCH_USAGE } from './parse-bench-args.js';
export type { BenchArgs } from './parse-bench-args.js';
