import type { RepetitionSummary } from './repetitions.js';
import type { SampleStats, Spread } from './summarize.js';

/** One timed side of a benchmark. */
export interface BenchSide {
  /** What was timed (`toolhost McpServerManager`, `SDK Client`...). */
  readonly label: string;
  /** Wall time per run in milliseconds, over every timed sample of every repetition. */
  readonly stats: SampleStats;
  /** CPU time of the bench process per run, in microseconds (median over repetitions); child processes are not counted. */
  readonly cpuUs: number;
}

/** A goal a comparison is held to: `pnpm bench` prints FAIL and exits 1 when a median ratio is above it. */
export interface BenchGoal {
  /** Highest acceptable median wall-time ratio. */
  readonly wallRatio?: number;
  /** Highest acceptable median CPU-time ratio. */
  readonly cpuRatio?: number;
}

/** PASS or FAIL against a goal or a check's limit, with the numbers that decided it. */
export interface BenchVerdict {
  readonly pass: boolean;
  /** `wall 1.03x <= 1.05x, cpu 1.12x > 1.10x`. */
  readonly detail: string;
}

/** The outcome of one comparison, measured in independent repetitions. */
export interface BenchResult {
  /** Short stable id, used in the table and the JSON output (`discovery(20 stdio)`). */
  readonly id: string;
  /** One line on what one run does. */
  readonly description: string;
  /** The toolhost side. */
  readonly subject: BenchSide;
  /** The reference side. */
  readonly baseline: BenchSide;
  /** A second copy of the baseline on its own resources, when the benchmark has a control. */
  readonly control?: BenchSide;
  /** Name of the ratio (`toolhost/sdk`). */
  readonly ratioName: string;
  /** The MCP revision every side negotiated, checked in every repetition (process benchmarks only). */
  readonly revision?: string;
  /** Repetitions that ran. */
  readonly repetitions: number;
  /** Per-repetition wall-time ratio subject/baseline: median and spread. Above 1 means toolhost is slower. */
  readonly wallRatio: Spread;
  /** Per-repetition CPU-time ratio subject/baseline (bench process only). */
  readonly cpuRatio: Spread;
  /** Per-repetition wall-time ratio control/baseline: the noise floor (same code on both sides). */
  readonly controlWallRatio?: Spread;
  /** Per-repetition CPU-time ratio control/baseline. */
  readonly controlCpuRatio?: Spread;
  /** The goal, when the comparison has one. */
  readonly goal?: BenchGoal;
  /** PASS/FAIL against {@link goal}. */
  readonly verdict?: BenchVerdict;
  /** Anything a reader needs to interpret the numbers (environment of the children, corpus...). */
  readonly notes?: readonly string[];
}

/** A measurement held to a limit rather than compared with a baseline (the image copy check). */
export interface CheckResult {
  /** Short stable id (`image copy check(200 x 10 MB)`). */
  readonly id: string;
  /** What was measured. */
  readonly description: string;
  /** The measured value, in `unit`. */
  readonly value: number;
  /** `bytes per mapping`. */
  readonly unit: string;
  /** The highest passing value. */
  readonly limit: number;
  readonly verdict: BenchVerdict;
  /** The raw numbers behind `value`. */
  readonly details: Readonly<Record<string, number>>;
  readonly notes?: readonly string[];
}

/** Judge the median ratios against a goal. */
export function judge(goal: BenchGoal, wallRatio: number, cpuRatio: number): BenchVerdict {
  const parts: string[] = [];
  let pass = true;
  if (goal.wallRatio !== undefined) {
    const ok = wallRatio <= goal.wallRatio;
    pass &&= ok;
    parts.push(`wall ${wallRatio.toFixed(2)}x ${ok ? '<=' : '>'} ${goal.wallRatio.toFixed(2)}x`);
  }
  if (goal.cpuRatio !== undefined) {
    const ok = cpuRatio <= goal.cpuRatio;
    pass &&= ok;
    parts.push(`cpu ${cpuRatio.toFixed(2)}x ${ok ? '<=' : '>'} ${goal.cpuRatio.toFixed(2)}x`);
  }
  return { pass, detail: parts.join(', ') };
}

/** Build a {@link BenchResult} from the repetitions of a comparison. */
export function toBenchResult(params: {
  readonly id: string;
  readonly description: string;
  readonly ratioName: string;
  readonly labels: { readonly subject: string; readonly baseline: string; readonly control?: string };
  readonly summary: RepetitionSummary;
  readonly goal?: BenchGoal;
  readonly notes?: readonly string[];
  readonly revision?: string;
}): BenchResult {
  const { summary, labels, goal } = params;
  return {
    id: params.id,
    description: params.description,
    ratioName: params.ratioName,
    ...(params.revision ? { revision: params.revision } : {}),
    repetitions: summary.repetitions,
    subject: { label: labels.subject, ...summary.subject },
    baseline: { label: labels.baseline, ...summary.baseline },
    ...(summary.control ? { control: { label: labels.control ?? `${labels.baseline} (control)`, ...summary.control } } : {}),
    wallRatio: summary.wallRatio,
    cpuRatio: summary.cpuRatio,
    ...(summary.controlWallRatio ? { controlWallRatio: summary.controlWallRatio } : {}),
    ...(summary.controlCpuRatio ? { controlCpuRatio: summary.controlCpuRatio } : {}),
    ...(goal ? { goal, verdict: judge(goal, summary.wallRatio.median, summary.cpuRatio.median) } : {}),
    ...(params.notes && params.notes.length > 0 ? { notes: params.notes } : {}),
  };
}
