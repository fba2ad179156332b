/**
 * Which model API a schema is prepared for.
 *
 * - `gemini`: the seeds' rules, applied to every schema in the tree: drop `$schema`, drop
 *   `additionalProperties`, drop `default` next to `anyOf`; local `$ref`s are inlined (Gemini's
 *   OpenAPI-style `parameters` has no `$ref`) and `$defs`/`definitions` removed; `type: [X, "null"]`
 *   becomes `{ type: X, nullable: true }` and wider type lists become `anyOf` of single types;
 *   boolean schemas become `{}`. With `geminiSchemaFieldsOnly`, only what Gemini's
 *   `parameters` (its OpenAPI-style `Schema`) accepts is kept.
 * - `gemini-json-schema`: today's Gemini CLI for `parametersJsonSchema`: only
 *   `type: [X, "null"]` → `{ type: X, nullable: true }`; `$ref`/`$defs` kept.
 * - `openai-strict`: OpenAI structured-outputs strict mode (see `sanitizeSchema`).
 * - `anthropic`: `input_schema` must be an object schema at the root; the rest is kept.
 * - `none`: a copy of the input.
 */
export type SchemaProfile = 'gemini' | 'gemini-json-schema' | 'openai-strict' | 'anthropic' | 'none';

/** Every {@link SchemaProfile}, in a stable order. */
export const SCHEMA_PROFILES: readonly SchemaProfile[] = ['gemini', 'gemini-json-schema', 'openai-strict', 'anthropic', 'none'];

/** A JSON Schema object (never mutated by this package). */
export type JsonSchemaObject = Record<string, unknown>;

/** Why a keyword or schema was removed or rewritten. */
export type SchemaDropReason =
  /** The profile does not support this keyword (the seeds' Gemini rules, or OpenAI strict mode). */
  | 'unsupported-keyword'
  /** `default` next to `anyOf` (the seeds' Vertex AI rule). */
  | 'default-next-to-anyOf'
  /** `$defs`/`definitions` removed because every `$ref` was inlined. */
  | 'refs-inlined'
  /** A `$ref` that is not a local JSON pointer, or that points nowhere; the siblings are kept. */
  | 'unresolved-ref'
  /** A `$ref` not inlined because it repeats too often on one path (recursion) or the inlining budget ran out. */
  | 'ref-depth-limit'
  /** A value in a schema position that is not a schema (a string, number or null). */
  | 'invalid-schema'
  /** A `false` schema the profile cannot express; the slot was removed. */
  | 'false-schema'
  /** A `format` the profile does not support. */
  | 'unsupported-format'
  /**
   * A keyword whose value the profile cannot send: a `required` or `propertyOrdering` name that is
   * not a kept property, a negative or fractional `minItems`, a `type` the API does not know...
   */
  | 'invalid-value'
  /** A keyword that could not be merged into its parent (`allOf` members, `oneOf` next to `anyOf`). */
  | 'not-merged'
  /** The root was not an object schema; it was replaced or merged into one. */
  | 'root-not-object'
  /** An unconstrained schema (`{}` or `true`) narrowed to the primitive types the profile can express. */
  | 'any-narrowed';

/** One thing the sanitizer removed or rewrote, reported through `onDrop`. */
export interface DroppedSchemaKeyword {
  /** JSON pointer of the schema that held the keyword, in the input (`''` is the root). */
  readonly path: string;
  /** The keyword (or property name) removed or rewritten. */
  readonly keyword: string;
  /** Why. */
  readonly reason: SchemaDropReason;
}
