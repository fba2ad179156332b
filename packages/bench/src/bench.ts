// The `pnpm bench` command: runs every benchmark once and prints a table and the ratios (or JSON with --json).
import { formatReport } from './format-report.js';
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
    onStart: (name) => console.error(`running ${name}...`),
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
