// Public API of @toolhost-internal/bench: the benchmark functions and the statistics helpers behind `pnpm bench`.
export { median, percentile, spreadOf, sum, summarize } from './summarize.js';
export type { SampleStats, Spread } from './summarize.js';
export { meanRatio, pairedRatio, ratio } from './ratio.js';
export { compareInterleaved, measureBatch, roundOrder, timeBatch } from './compare-interleaved.js';
export type { BatchMeasurement, BenchTask, CompareInterleavedOptions, InterleavedSamples, SideBatches } from './compare-interleaved.js';
export { runRepetitions, summarizeRepetitions } from './repetitions.js';
export type { RepetitionSummary, RunRepetitionsOptions, SideSummary } from './repetitions.js';
export { judge, toBenchResult } from './bench-result.js';
export type { BenchGoal, BenchResult, BenchSide, BenchVerdict, CheckResult } from './bench-result.js';
export { benchDiscovery, DISCOVERY_GOAL, findCaBundle, measureCaChildStartup } from './bench-discovery.js';
export type { BenchDiscoveryOptions, ChildStartupCost } from './bench-discovery.js';
export { benchSanitize, CORPUS_SIZE } from './bench-sanitize.js';
export type { BenchSanitizeOptions } from './bench-sanitize.js';
export { describeCorpus, loadSchemaCorpus, schemaKeywordUse, SCHEMA_CORPUS_URL } from './schema-corpus.js';
export type { CorpusTool, SchemaCorpus } from './schema-corpus.js';
export { benchCallTool, CALL_TOOL_GOAL } from './bench-call-tool.js';
export type { BenchCallToolOptions } from './bench-call-tool.js';
export { benchAiSdkCall, AI_SDK_CALL_GOAL } from './bench-ai-sdk-call.js';
export type { BenchAiSdkCallOptions } from './bench-ai-sdk-call.js';
export { connectAiSdkMcpEchoClient } from './sdk-baseline-ai-sdk-mcp.js';
export type { AiSdkMcpEchoClient } from './sdk-baseline-ai-sdk-mcp.js';
export { benchMapImage } from './bench-map-image.js';
export type { BenchMapImageOptions } from './bench-map-image.js';
export { benchImageCopy } from './bench-image-copy.js';
export type { ImageCopyCheckOptions, ResultMapper } from './bench-image-copy.js';
export { getGc } from './gc.js';
export { runBenchmarks, reportProblems, BENCHMARK_NAMES, PER_WIRE_BENCHMARKS, NEWEST_WIRE_BENCHMARKS } from './run-benchmarks.js';
export type { BenchmarkName, BenchReport, BenchFailure, RunBenchmarksOptions } from './run-benchmarks.js';
export { formatReport, formatDuration, formatRatio, formatSpread, goalsLine, resultRow, checkRow } from './format-report.js';
export { assertWire, fixtureEntry, WireMismatchError, WIRES, WIRE_REVISIONS, wireOf } from './wires.js';
export type { StdioServerEntry, Wire, WireRevision } from './wires.js';
export { connectSdkClient, InPlaceStdioClientTransport, SDK_CLIENT_INFO, sdkDefaultChildEnvironment } from './sdk-baseline-client.js';
export { connectSdkEchoClient } from './sdk-baseline-call-tool.js';
export type { SdkEchoClient } from './sdk-baseline-call-tool.js';
export { discoverWithSdk } from './sdk-baseline-discovery.js';
export type { SdkDiscovery } from './sdk-baseline-discovery.js';
export { parseBenchArgs, BENCH_USAGE } from './parse-bench-args.js';
export type { BenchArgs } from './parse-bench-args.js';
export { parseScaleArgs, SCALE_USAGE } from './parse-scale-args.js';
export type { ScaleArgs } from './parse-scale-args.js';
export {
  countedBytes,
  judgeScale,
  latencySummary,
  medianSample,
  memoryPerHost,
  openLoopSchedule,
  p99Ratio,
  pairedP99Ratio,
  SATURATED_SLICE_STRETCH,
  SCALE_GOAL,
  SCALE_GOAL_HOSTS,
  sliceSchedule,
  toKb,
} from './scale-stats.js';
export type { LatencySummary, MemoryPerHost, MemorySample, ScaleGoal, ScaleVerdict } from './scale-stats.js';
export { runScale } from './run-scale.js';
export type { RunScaleOptions, ScaleFailure, ScaleRun, ScaleSide } from './run-scale.js';
export { formatScaleReport, formatScaleRun, summarizeScale } from './format-scale-report.js';
export type { ScaleSummary } from './format-scale-report.js';
export { scaleServersPath, startScaleServers } from './scale-server-process.js';
export type { ScaleServers } from './scale-server-process.js';
export { connectSdkHttpEchoClient } from './sdk-baseline-http.js';
export type { SdkHttpEchoClient } from './sdk-baseline-http.js';
export { listenLikeDiscovery } from './sdk-baseline-discovery.js';
