import { parseArgs } from 'node:util';
import { BENCHMARK_NAMES, type BenchmarkName } from './run-benchmarks.js';
import { WIRE_REVISIONS, type WireRevision } from './wires.js';

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
  /** The wires (MCP revisions) the process benchmarks run on. */
  readonly wires: readonly WireRevision[];
  /** Print the usage and exit. */
  readonly help: boolean;
}

/** Usage text of the benchmark command. */
export const BENCH_USAGE = `Usage: node --expose-gc dist/bench.js [--json] [--only=${BENCHMARK_NAMES.join(',')}] [--wire=${WIRE_REVISIONS.join(',')}] [--reps=5] [--scale=1]

  --json    print the report as JSON on stdout
  --only    comma-separated benchmarks to run (default: all); '--only call-tool' works too
  --wire    comma-separated MCP revisions the process benchmarks run on (default: all)
  --reps    independent repetitions of every comparison (fresh hosts, clients and processes)
  --scale   multiply every round count (e.g. 0.2 for a quick, noisier run)

Exit code: 0 when every goal and check passed on every wire; 1 when a goal was missed, a check
failed or a benchmark could not be measured (a wire that negotiated another revision among them);
2 for a bad option.`;

function isBenchmarkName(value: string): value is BenchmarkName {
  return (BENCHMARK_NAMES as readonly string[]).includes(value);
}

function isWireRevision(value: string): value is WireRevision {
  return (WIRE_REVISIONS as readonly string[]).includes(value);
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
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
      wire: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const only = values.only === undefined ? [...BENCHMARK_NAMES] : list(values.only);
  const unknown = only.filter((name) => !isBenchmarkName(name));
  if (unknown.length > 0) throw new TypeError(`unknown benchmark ${unknown.join(', ')}; choose from ${BENCHMARK_NAMES.join(', ')}`);
  const wires = values.wire === undefined ? [...WIRE_REVISIONS] : list(values.wire);
  const unknownWires = wires.filter((wire) => !isWireRevision(wire));
  if (unknownWires.length > 0 || wires.length === 0) {
    throw new TypeError(`unknown wire ${unknownWires.join(', ') || "''"}; choose from ${WIRE_REVISIONS.join(', ')}`);
  }
  const scale = Number(values.scale);
  if (!(scale > 0) || !Number.isFinite(scale)) throw new TypeError(`--scale must be a positive number, not '${values.scale}'`);
  const repetitions = Number(values.reps);
  if (!Number.isInteger(repetitions) || repetitions < 1)
    throw new TypeError(`--reps must be a positive whole number, not '${values.reps}'`);
  return {
    json: values.json === true,
    only: only.filter(isBenchmarkName),
    wires: WIRE_REVISIONS.filter((wire) => wires.includes(wire)),
    scale,
    repetitions,
    help: values.help === true,
  };
}
