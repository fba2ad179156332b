import type { SampleStats } from './summarize.js';

/** One timed side of a benchmark. */
export interface BenchSide {
  /** What was timed (`toolhost McpServerManager`, `SDK Client`...). */
  readonly label: string;
  /** Per-run times in milliseconds. */
  readonly stats: SampleStats;
}

/** The outcome of one benchmark: the code under test and, for a comparison, its baseline. */
export interface BenchResult {
  /** Short stable id, used in the ratio line and the JSON output (`discovery(20 stdio)`). */
  readonly id: string;
  /** One line on what one run does. */
  readonly description: string;
  /** The toolhost side. */
  readonly subject: BenchSide;
  /** The reference side, when the benchmark is a comparison. */
  readonly baseline?: BenchSide;
  /** Name of the ratio (`toolhost/sdk`), when there is a baseline. */
  readonly ratioName?: string;
  /** Median of the subject divided by median of the baseline; above 1 means toolhost is slower. */
  readonly ratio?: number;
  /** Median of the per-round ratios (both sides of a round ran under the same load). */
  readonly pairedRatio?: number;
}
