// The `pnpm bench` command: runs every benchmark in repetitions and prints one table (or JSON with --json).
// PASS/FAIL is printed, not enforced: the exit code is 1 only when a benchmark could not be measured.
import { formatDuration, formatReport } from './format-report.js';
import { BENCH_USAGE, parseBenchArgs, type BenchArgs } from './parse-bench-args.js';
import { runBenchmarks } from './run-benchmarks.js';

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${BENCH_USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(BENCH_USAGE);
    return 0;
  }
  const report = await runBenchmarks({
    only: args.only,
    scale: args.scale,
    repetitions: args.repetitions,
    onStart: (name) => process.stderr.write(`running ${name}... `),
    onEnd: (_name, durationMs) => console.error(formatDuration(durationMs)),
  });
  console.log(args.json ? JSON.stringify(report, null, 2) : formatReport(report));
  return report.failures.length > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
