import { SCHEMA_PROFILES, sanitizeSchema, type SchemaProfile } from '@toolhost/schema-sanitizer';
// The corpus is a test fixture of the sanitizer, not part of its public API: bundled from source.
import { TOOL_SCHEMA_CORPUS } from '../../schema-sanitizer/src/__fixtures__/tool-schema-corpus.js';
import type { BenchResult } from './bench-result.js';
import { compareInterleaved } from './compare-interleaved.js';
import { pairedRatio, ratio } from './ratio.js';
import { summarize } from './summarize.js';

/** Options of {@link benchSanitize}. */
export interface BenchSanitizeOptions {
  /** Profiles to measure. @default every profile of `SCHEMA_PROFILES` */
  readonly profiles?: readonly SchemaProfile[];
  /** Timed samples per profile. @default 60 (`pnpm bench` uses 100) */
  readonly iterations?: number;
  /** Corpus passes per sample. @default 20 */
  readonly batch?: number;
  /** Untimed samples first. @default 5 */
  readonly warmup?: number;
}

/** Number of tool schemas in the corpus. */
export const CORPUS_SIZE = TOOL_SCHEMA_CORPUS.length;

/**
 * `sanitizeSchema` over the whole real-world corpus (one pass = every schema once), per
 * profile, against `structuredClone` of the same schemas: both return a deep copy, so the
 * ratio is the price of the rewriting itself.
 */
export async function benchSanitize(options: BenchSanitizeOptions = {}): Promise<BenchResult[]> {
  const schemas = TOOL_SCHEMA_CORPUS.map((tool) => tool.inputSchema);
  const results: BenchResult[] = [];
  let sink = 0;
  for (const profile of options.profiles ?? SCHEMA_PROFILES) {
    const samples = await compareInterleaved({
      subject: () => {
        for (const schema of schemas) sink += Object.keys(sanitizeSchema(schema, { profile })).length;
      },
      baseline: () => {
        for (const schema of schemas) sink += Object.keys(structuredClone(schema)).length;
      },
      warmup: options.warmup ?? 5,
      iterations: options.iterations ?? 60,
      batch: options.batch ?? 20,
    });
    const subject = summarize(samples.subject);
    const baseline = summarize(samples.baseline);
    results.push({
      id: `sanitizeSchema(${profile})`,
      description: `one pass over the ${schemas.length} corpus schemas with profile '${profile}'`,
      subject: { label: `sanitizeSchema ${profile}`, stats: subject },
      baseline: { label: 'structuredClone', stats: baseline },
      ratioName: 'sanitize/clone',
      ratio: ratio(subject.median, baseline.median),
      pairedRatio: pairedRatio(samples.subject, samples.baseline),
    });
  }
  if (sink === 0) throw new Error('the sanitizer benchmark produced no output');
  return results;
}
