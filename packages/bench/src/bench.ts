// The `pnpm bench` command: runs every benchmark in repetitions and prints one table (or JSON with --json).
// It checks its own goals: the exit code is 1 when a goal is missed, a check fails or a benchmark
// could not be measured (a wire that negotiated another revision than its row claims among them).
import { formatDuration, formatReport, goalsLine } from './format-report.js';
import { BENCH_USAGE, parseBenchArgs, type BenchArgs } from './parse-bench-args.js';
import { reportProblems, runBenchmarks } from './run-benchmarks.js';

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
    wires: args.wires,
    onStart: (name, wire) => process.stderr.write(`running ${name}${wire ? ` on ${wire}` : ''}... `),
    onEnd: (_name, durationMs) => console.error(formatDuration(durationMs)),
  });
  const problems = reportProblems(report);
  if (args.json) {
    console.log(JSON.stringify({ ...report, goals: { pass: problems.length === 0, problems } }, null, 2));
    console.error(goalsLine(report));
  } else {
    console.log(formatReport(report));
  }
  return problems.length > 0 ? 1 : 0;
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
