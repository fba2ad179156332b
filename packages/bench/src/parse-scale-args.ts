import { parseArgs } from 'node:util';
import { WIRE_REVISIONS, type WireRevision } from './wires.js';

/** Command-line options of `pnpm bench:scale` (`node --expose-gc dist/bench-scale.js`). */
export interface ScaleArgs {
  /** Hosts (and raw SDK clients, and servers per side). */
  readonly hosts: number;
  /** Total requests per second per side, spread round-robin over the hosts. */
  readonly rate: number;
  /** Timed load per side, in seconds. */
  readonly durationS: number;
  /** Untimed load per side first, in seconds. */
  readonly warmupS: number;
  /** Length of one interleaved slice, in milliseconds. */
  readonly sliceMs: number;
  /** The revisions to run on, in order. */
  readonly revisions: readonly WireRevision[];
  /** Exit 1 when a goal is missed (otherwise the verdict is printed only). */
  readonly check: boolean;
  /** Print the results as JSON on stdout (progress still goes to stderr). */
  readonly json: boolean;
  /** Print the usage and exit. */
  readonly help: boolean;
}

/** Usage text of `pnpm bench:scale`. */
export const SCALE_USAGE = `Usage: pnpm bench:scale -- [--hosts 200] [--rate 500] [--duration 10] [--warmup 2] [--slice 500] [--revision 2025-11-25|2026-07-28|both] [--check] [--json]

  --hosts     McpToolHosts in this process, each with its own Streamable HTTP server on loopback;
              as many raw SDK clients (and a control set of them), each on its own server too
  --rate      requests per second per side, open loop (a fixed timer, whatever the answers do),
              round-robin over the hosts
  --duration  timed seconds of load per side
  --warmup    untimed seconds of load per side first
  --slice     milliseconds per interleaved slice (the sides take turns, in changing order)
  --revision  the MCP revision both sides must negotiate (default: both, one after the other)
  --check     exit 1 when a goal is missed (without it the verdict is printed only)
  --json      print the results as JSON on stdout

Goals (set for 200 hosts): per-host memory over raw <= 200 KB, p99 ratio <= 1.10.
Exit code: 0; 1 when a revision could not be measured (a wrong answer, a wrong revision), or with
--check when a goal was missed; 2 for a bad option.`;

function positive(name: string, raw: string, integer: boolean): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new TypeError(`--${name} must be a positive ${integer ? 'whole ' : ''}number, not '${raw}'`);
  }
  return value;
}

/** Parse the command line of `pnpm bench:scale`; throws a `TypeError` with a readable message for a bad option. */
export function parseScaleArgs(argv: readonly string[]): ScaleArgs {
  // `pnpm bench:scale -- --hosts 200` may pass the `--` separator through: ignore it.
  const args = argv.filter((arg) => arg !== '--');
  const { values } = parseArgs({
    args,
    options: {
      hosts: { type: 'string', default: '200' },
      rate: { type: 'string', default: '500' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      slice: { type: 'string', default: '500' },
      revision: { type: 'string', default: 'both' },
      check: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const revision = values.revision.trim();
  let revisions: WireRevision[];
  if (revision === 'both') revisions = [...WIRE_REVISIONS];
  else if ((WIRE_REVISIONS as readonly string[]).includes(revision)) revisions = [revision as WireRevision];
  else throw new TypeError(`--revision must be ${WIRE_REVISIONS.join(', ')} or both, not '${values.revision}'`);
  const warmupS = Number(values.warmup);
  if (!Number.isFinite(warmupS) || warmupS < 0) throw new TypeError(`--warmup must be zero or a positive number, not '${values.warmup}'`);
  return {
    hosts: positive('hosts', values.hosts, true),
    rate: positive('rate', values.rate, false),
    durationS: positive('duration', values.duration, false),
    warmupS,
    sliceMs: positive('slice', values.slice, false),
    revisions,
    check: values.check,
    json: values.json,
    help: values.help,
  };
}
