// `pnpm bench:tool-search`: the tool ranker of @toolhost/tool-search against plain BM25 over names
// and descriptions, on the query set of corpus/tool-search-queries.json over the 208-tool corpus:
// recall@1, recall@5 and MRR per query set, index build and search times over 500 tools, and the
// goals. Exit code 1 when a goal is missed, 2 for a bad option.
import { formatToolSearchReport } from './format-tool-search-report.js';
import { runToolSearchBench } from './run-tool-search-bench.js';

const USAGE = `Usage: node dist/bench-tool-search.js [--json] [--misses] [--reps=<n>] [--tools=<n>]
  --json      the report as JSON on stdout
  --misses    list the queries each ranker missed at 5 (tuning and held-out sets)
  --reps      repetitions of the timing runs (default 10)
  --tools     tools in the timing runs (default 500)`;

function parse(args: readonly string[]): { json: boolean; misses: boolean; repetitions: number; tools: number; help: boolean } {
  const parsed = { json: false, misses: false, repetitions: 10, tools: 500, help: false };
  for (const arg of args) {
    const [flag, value] = arg.split('=', 2);
    if (flag === '--json' && value === undefined) parsed.json = true;
    else if (flag === '--misses' && value === undefined) parsed.misses = true;
    else if (flag === '--help' || flag === '-h') parsed.help = true;
    else if ((flag === '--reps' || flag === '--tools') && value !== undefined && /^[1-9]\d{0,5}$/.test(value)) {
      parsed[flag === '--reps' ? 'repetitions' : 'tools'] = Number(value);
    } else throw new Error(`bench:tool-search: unknown or malformed option ${JSON.stringify(arg)}`);
  }
  return parsed;
}

async function main(): Promise<number> {
  let args: ReturnType<typeof parse>;
  try {
    args = parse(process.argv.slice(2));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (args.help) {
    console.log(USAGE);
    return 0;
  }
  const report = await runToolSearchBench({ repetitions: args.repetitions, timingTools: args.tools });
  if (args.json) console.log(JSON.stringify(report, null, 2));
  else console.log(formatToolSearchReport(report, { misses: args.misses }));
  return report.goals.every((goal) => goal.pass) ? 0 : 1;
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
