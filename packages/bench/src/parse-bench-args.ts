import { parseArgs } from 'node:util';
import { BENCHMARK_NAMES, type BenchmarkName } from './run-benchmarks.js';

/** Command-line options of `node dist/bench.js`. */
export interface BenchArgs {
  /** Print the report as JSON on stdout (progress still goes to stderr). */
  readonly json: boolean;
  /** Benchmarks to run. */
  readonly only: readonly BenchmarkName[];
  /** Round-count multiplier. */
  readonly scale: number;
  /** Independent repetitions of every comparison. */
  readonly repetitions: number;
  /** Print the usage and exit. */
  readonly help: boolean;
}

/** Usage text of the benchmark command. */
export const BENCH_USAGE = `Usage: node --expose-gc dist/bench.js [--json] [--only=${BENCHMARK_NAMES.join(',')}] [--reps=5] [--scale=1]

  --json    print the report as JSON on stdout
  --only    comma-separated benchmarks to run (default: all); '--only call-tool' works too
  --reps    independent repetitions of every comparison (fresh hosts, clients and processes)
  --scale   multiply every round count (e.g. 0.2 for a quick, noisier run)`;

function isBenchmarkName(value: string): value is BenchmarkName {
  return (BENCHMARK_NAMES as readonly string[]).includes(value);
}

/** Parse the command line; throws a `TypeError` with a readable message for a bad option. */
export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  // `pnpm bench -- --only call-tool` may pass the `--` separator through: ignore it.
  const args = argv.filter((arg) => arg !== '--');
  const { values } = parseArgs({
    args,
    options: {
      json: { type: 'boolean', default: false },
      only: { type: 'string' },
      scale: { type: 'string', default: '1' },
      reps: { type: 'string', default: '5' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const only =
    values.only === undefined
      ? [...BENCHMARK_NAMES]
      : values.only
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
  const unknown = only.filter((name) => !isBenchmarkName(name));
  if (unknown.length > 0) throw new TypeError(`unknown benchmark ${unknown.join(', ')}; choose from ${BENCHMARK_NAMES.join(', ')}`);
  const scale = Number(values.scale);
  if (!(scale > 0) || !Number.isFinite(scale)) throw new TypeError(`--scale must be a positive number, not '${values.scale}'`);
  const repetitions = Number(values.reps);
  if (!Number.isInteger(repetitions) || repetitions < 1)
    throw new TypeError(`--reps must be a positive whole number, not '${values.reps}'`);
  return { json: values.json === true, only: only.filter(isBenchmarkName), scale, repetitions, help: values.help === true };
}
