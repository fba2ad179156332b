import { isPlainObject } from './json-pointer.js';
import { emptyObjectSchema, normalizeRoot } from './normalize-root.js';
import { GEMINI_FIELDS_ONLY_RULES } from './gemini-fields-only-rules.js';
import { PROFILE_RULES } from './profile-rules.js';
import type { DroppedSchemaKeyword, JsonSchemaObject, SchemaProfile } from './schema-profile.js';
import { SchemaSanitizerError } from './schema-sanitizer-error.js';
import { transformSchema } from './transform-schema.js';

/** Options of {@link sanitizeSchema}. */
export interface SanitizeSchemaOptions {
  /**
   * The model API the schema is for.
   * @default 'gemini'
   */
  profile?: SchemaProfile;
  /**
   * `gemini` only: how many times the same `$ref` may be inlined along one path before the
   * recursion is cut (the cut node becomes `{}`, keeping its `description`).
   * @default 2
   */
  maxRefDepth?: number;
  /**
   * `gemini` only: how many `$ref`s may be inlined in the whole schema (guards against
   * exponential `$defs` fan-out); later refs are cut like recursion.
   * @default 1000
   */
  maxInlinedRefs?: number;
  /**
   * Most schema and data nodes to visit before giving up with a `SchemaSanitizerError`
   * (`SCHEMA_TOO_LARGE`); also what stops a cyclic JavaScript object graph.
   * @default 1_000_000
   */
  maxNodes?: number;
  /**
   * `gemini` only: produce only what the Gemini API accepts in `FunctionDeclaration.parameters`
   * (its OpenAPI-style `Schema`), which answers 400 for anything else:
   * - only the fields of `Schema` (`GEMINI_SCHEMA_FIELDS`); `oneOf` becomes `anyOf`,
   *   `allOf` members are merged into their parent;
   * - `type` is one of `string number integer boolean array object`: `[X, "null"]`, `"null"` and
   *   `null` members of `anyOf` become `nullable: true` (an `anyOf` left with one member is merged
   *   into its parent, whose `description` wins); a wider type list becomes `anyOf` with each
   *   type's keywords in its member; `type` and `anyOf` never sit on one node;
   * - `enum` only on strings, with string values (a string `const` becomes a one-value `enum`);
   *   number or boolean `enum`/`const` are dropped and listed in the `description` instead;
   * - `format` only `enum`/`date-time` for strings, `int32`/`int64` for integers, `float`/`double`
   *   for numbers; another format is dropped and named in the `description` (`format: uuid`);
   * - `exclusiveMinimum`/`exclusiveMaximum` become `minimum`/`maximum` (exact for integers, with a
   *   note in the `description` for numbers); a tuple `items` list of one schema becomes that schema;
   * - `required` and `propertyOrdering` name only kept properties; count fields (`minItems`...) are
   *   whole numbers >= 0 and `minimum`/`maximum` numbers, or they are dropped.
   *
   * Every change is reported through `onDrop`.
   * @default false
   */
  geminiSchemaFieldsOnly?: boolean;
  /** Called for every keyword or schema removed or rewritten, with its JSON pointer in the input. */
  onDrop?: (dropped: DroppedSchemaKeyword) => void;
}

/**
 * Return a copy of a tool's input schema that the chosen model API accepts. The input is
 * never mutated and the output shares no objects with it. One iterative pass: no recursion,
 * so a schema nested 10 000 levels deep does not overflow the stack.
 *
 * A missing or non-object schema becomes `{ type: 'object', properties: {} }` (every profile).
 * Every profile but `none` and `gemini-json-schema` also makes the root an object schema
 * (root `$ref` resolved, root `anyOf`/`oneOf` of objects merged: see `normalizeRoot`).
 *
 * `$ref` rule: `gemini` inlines local refs (its OpenAPI-style schema has no `$ref`), at most
 * `maxRefDepth` times per ref on one path and `maxInlinedRefs` in total, and drops
 * `$defs`/`definitions`; every other profile keeps `$ref` and `$defs` as they are and never
 * follows them, so recursive refs cannot hang any profile.
 *
 * `openai-strict` (OpenAI structured outputs, `strict: true`):
 * - every object schema gets `additionalProperties: false`, `properties` (at least `{}`) and
 *   `required` listing every property; properties that were optional become nullable
 *   (`type: [X, "null"]`, `null` added to `enum`, `{type:"null"}` added to `anyOf`, or the schema
 *   wrapped in `anyOf: [schema, {type:"null"}]`), so the model sends `null` for "not given";
 * - `oneOf` becomes `anyOf`; `allOf` members are merged into their parent (properties and
 *   `required` united);
 * - kept keywords: `type properties required additionalProperties items anyOf enum const
 *   description title $ref $defs definitions pattern format multipleOf maximum exclusiveMaximum
 *   minimum exclusiveMinimum minItems maxItems`; `format` only for `date-time time date duration
 *   email hostname ipv4 ipv6 uuid`;
 * - dropped (reported through `onDrop`): `default`, `examples`, `$schema`, `$id`, `not`,
 *   `if/then/else`, `patternProperties`, `propertyNames`, `dependentSchemas`, `dependencies`,
 *   `unevaluated*`, `contains`, `uniqueItems`, `minLength`, `maxLength`, `minProperties`,
 *   `maxProperties`, `prefixItems`, tuple `items`, `additionalProperties` schemas (so a free-form
 *   map can only be `{}`), vendor `x-*` keys, and any other keyword;
 * - an unconstrained schema (`{}`, `true`) becomes `type: ["string","number","boolean","null"]`;
 *   a `false` schema removes its slot.
 *
 * `gemini-json-schema` rewrites `type` only in schema positions, never inside `default`,
 * `const`, `enum` or `examples` values (which are data).
 *
 * @example
 * sanitizeSchema({ $schema: 'x', type: 'object', additionalProperties: false }, { profile: 'gemini' });
 * // → { type: 'object' }
 */
export function sanitizeSchema(schema: unknown, options: SanitizeSchemaOptions = {}): JsonSchemaObject {
  const profile = options.profile ?? 'gemini';
  if (!isPlainObject(schema)) return emptyObjectSchema();
  const onDrop = options.onDrop;
  const common = {
    root: schema,
    maxRefDepth: options.maxRefDepth ?? 2,
    maxInlinedRefs: options.maxInlinedRefs ?? 1000,
    maxNodes: options.maxNodes ?? 1_000_000,
    onDrop,
  };
  if (profile === 'none') return transformSchema(schema, { ...common, rules: undefined });
  const rules = profile === 'gemini' && options.geminiSchemaFieldsOnly === true ? GEMINI_FIELDS_ONLY_RULES : PROFILE_RULES[profile];
  if (rules === undefined) {
    throw new SchemaSanitizerError({
      code: 'UNKNOWN_PROFILE',
      message: `Unknown schema profile '${String(profile)}': use gemini, gemini-json-schema, openai-strict, anthropic or none.`,
    });
  }
  const reportRoot = (keyword: string, reason: DroppedSchemaKeyword['reason']) => onDrop?.({ path: '', keyword, reason });
  let start = profile === 'gemini-json-schema' ? schema : normalizeRoot(schema, reportRoot);
  if (rules === GEMINI_FIELDS_ONLY_RULES && start['properties'] === undefined && (start['anyOf'] ?? start['oneOf']) !== undefined) {
    // `parameters` must stay one OBJECT, which `type` beside `anyOf` cannot: merge the members instead.
    const { type: _type, ...union } = start;
    start = normalizeRoot(union, reportRoot);
  }
  return transformSchema(start, { ...common, rules });
}
