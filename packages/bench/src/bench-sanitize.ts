import { SCHEMA_PROFILES, sanitizeSchema, type SchemaProfile } from '@toolhost/schema-sanitizer';
import { toBenchResult, type BenchResult } from './bench-result.js';
import { compareInterleaved } from './compare-interleaved.js';
import { runRepetitions, summarizeRepetitions } from './repetitions.js';
import { describeCorpus, loadSchemaCorpus } from './schema-corpus.js';

/** Options of {@link benchSanitize}. */
export interface BenchSanitizeOptions {
  /** Profiles to measure. @default every profile of `SCHEMA_PROFILES` */
  readonly profiles?: readonly SchemaProfile[];
  /** Independent repetitions per profile. @default 5 */
  readonly repetitions?: number;
  /** Timed rounds per repetition. @default 12 */
  readonly rounds?: number;
  /** Corpus passes per sample. @default 5 */
  readonly batch?: number;
  /** Untimed rounds first in every repetition. @default 2 */
  readonly warmupRounds?: number;
}

/** Number of tool schemas in the corpus. */
export const CORPUS_SIZE = loadSchemaCorpus().tools.length;

/**
 * `sanitizeSchema` over the corpus of real servers' tool schemas (one pass = every schema
 * once), per profile, against `structuredClone` of the same schemas: both return a deep copy,
 * so the ratio is the price of the rewriting itself. A schema the sanitizer rejects under a
 * profile is left out of both sides for that profile (and counted in the notes).
 */
export async function benchSanitize(options: BenchSanitizeOptions = {}): Promise<BenchResult[]> {
  const corpus = loadSchemaCorpus();
  const counts = describeCorpus(corpus);
  const corpusNote =
    `corpus: ${counts.tools} tools of ${counts.servers} published servers; ${counts.withAny} schemas use $ref/$defs/definitions ` +
    `(${counts.withRef} with $ref, ${counts.refs} $refs in all; ${counts.withDefs} with $defs; ${counts.withDefinitions} with definitions)`;
  const results: BenchResult[] = [];
  let sink = 0;
  for (const profile of options.profiles ?? SCHEMA_PROFILES) {
    const rejected: string[] = [];
    const schemas = corpus.tools
      .filter((tool) => {
        try {
          sanitizeSchema(tool.inputSchema, { profile });
          return true;
        } catch {
          rejected.push(`${tool.server}.${tool.name}`);
          return false;
        }
      })
      .map((tool) => tool.inputSchema);
    const repetitions = await runRepetitions({ repetitions: options.repetitions ?? 5 }, () =>
      compareInterleaved({
        subject: () => {
          for (const schema of schemas) sink += Object.keys(sanitizeSchema(schema, { profile })).length;
        },
        baseline: () => {
          for (const schema of schemas) sink += Object.keys(structuredClone(schema)).length;
        },
        warmup: options.warmupRounds ?? 2,
        iterations: options.rounds ?? 12,
        batch: options.batch ?? 5,
      }),
    );
    const notes = [corpusNote];
    if (rejected.length > 0) notes.push(`rejected by the sanitizer under '${profile}', left out: ${rejected.join(', ')}`);
    results.push(
      toBenchResult({
        id: `sanitizeSchema(${profile})`,
        description: `one pass over the ${schemas.length} corpus schemas with profile '${profile}'`,
        ratioName: 'sanitize/clone',
        labels: { subject: `sanitizeSchema ${profile}`, baseline: 'structuredClone' },
        summary: summarizeRepetitions(repetitions),
        notes,
      }),
    );
  }
  if (sink === 0) throw new Error('the sanitizer benchmark produced no output');
  return results;
}
