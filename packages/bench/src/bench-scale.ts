// `pnpm bench:scale`: N McpToolHosts in one process against N raw SDK clients, each on its own
// Streamable HTTP server (in a child process), per revision. Prints a report per revision, then
// `per-host memory over raw: <n> KB` and `p99 ratio: <x>` and the verdict against the goals. The
// exit code is 1 only when a revision could not be measured, or with --check when a goal is missed.
import { formatScaleReport } from './format-scale-report.js';
import { parseScaleArgs, SCALE_USAGE, type ScaleArgs } from './parse-scale-args.js';
import { runScale, type ScaleFailure, type ScaleRun } from './run-scale.js';

async function main(): Promise<number> {
  let args: ScaleArgs;
  try {
    args = parseScaleArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${SCALE_USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(SCALE_USAGE);
    return 0;
  }
  const runs: ScaleRun[] = [];
  const failures: ScaleFailure[] = [];
  for (const revision of args.revisions) {
    try {
      runs.push(
        await runScale({
          revision,
          hosts: args.hosts,
          rate: args.rate,
          durationMs: args.durationS * 1000,
          warmupMs: args.warmupS * 1000,
          sliceMs: args.sliceMs,
          onProgress: (line) => console.error(`[${revision}] ${line}`),
        }),
      );
    } catch (error) {
      failures.push({ revision, message: error instanceof Error ? error.message : String(error) });
      console.error(`[${revision}] NOT MEASURED: ${failures.at(-1)?.message}`);
    }
  }
  const report = formatScaleReport({ runs, failures, hosts: args.hosts, check: args.check });
  if (args.json) {
    console.log(JSON.stringify({ runs, failures, summary: report.summary }, null, 2));
    console.error(report.text);
  } else {
    console.log(report.text);
  }
  if (failures.length > 0) return 1;
  return args.check && !report.summary.pass ? 1 : 0;
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
