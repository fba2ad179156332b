import type { Ajv, Options as AjvOptions } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';
// ajv: in Node required by the first engine; in bundles and other runtimes imported with the package (package.json "imports").
import { loadAjv } from '#load-ajv';

/** A compiled pattern: the part of `RegExp` that Ajv's generated code calls. */
export interface LinearTimePattern {
  /** True when the pattern matches somewhere in `input` (JSON Schema `pattern` is unanchored). */
  test(input: string): boolean;
}

/** Longest pattern quoted in an error message. */
const QUOTED_PATTERN_LIMIT = 80;

function quotePattern(pattern: string): string {
  const shown = pattern.length > QUOTED_PATTERN_LIMIT ? `${pattern.slice(0, QUOTED_PATTERN_LIMIT)}…` : pattern;
  return JSON.stringify(shown);
}

/**
 * Compile a server-supplied JSON Schema `pattern` (ECMA-262 syntax) with RE2JS, a pure-JS port of
 * RE2: matching takes time linear in the input, so a pattern such as `(a+)+$` cannot freeze the
 * event loop (ReDoS), whatever the argument.
 *
 * Patterns RE2 cannot run in linear time (backreferences such as `\1`, lookahead `(?=…)`,
 * `(?!…)`, lookbehind) or cannot parse throw an `Error` naming the (JSON-quoted, truncated)
 * pattern. Ajv then fails to compile the schema, and the validators of this package treat that
 * schema as unchecked (the server validates its own input), never as a crash or a freeze.
 * Flags: `i`, `m` and `s` are honoured; `u` (always passed by Ajv) is RE2's default; others are ignored.
 *
 * Known differences with JavaScript's engine, all minor: `\s` is ASCII whitespace and `.` only
 * excludes `\n`.
 *
 * @example
 * ```ts
 * const ajv = new Ajv({ code: { regExp: linearTimeRegExp } });
 * ```
 */
export const linearTimeRegExp = Object.assign(
  (pattern: string, flags = ''): LinearTimePattern => {
    let re2Flags = 0;
    if (flags.includes('i')) re2Flags |= RE2JS.CASE_INSENSITIVE;
    if (flags.includes('m')) re2Flags |= RE2JS.MULTILINE;
    if (flags.includes('s')) re2Flags |= RE2JS.DOTALL;
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(pattern), re2Flags);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`pattern ${quotePattern(pattern)} is not supported by the linear-time (RE2) matcher: ${JSON.stringify(reason)}`);
    }
    return { test: (input: string) => compiled.test(input) };
  },
  // Ajv only reads `code` when generating standalone validation code (never done here).
  { code: 'linearTimeRegExp' },
);

/** JSON Schema dialects {@link createLinearTimeAjv} builds an engine for. */
export type LinearTimeAjvDialect = 'draft-07' | '2020-12';

/**
 * A lenient Ajv engine (`strict: false`, `allErrors`, no meta-schema check, `ajv-formats`) whose
 * `pattern` and `patternProperties` run through {@link linearTimeRegExp}. Use it for every
 * schema a server supplies.
 */
export function createLinearTimeAjv(dialect: LinearTimeAjvDialect): Ajv | Ajv2020 {
  const options: AjvOptions = {
    strict: false,
    allErrors: true,
    logger: false,
    validateSchema: false,
    code: { regExp: linearTimeRegExp },
  };
  const { Ajv, Ajv2020, addFormats } = loadAjv();
  const ajv = dialect === '2020-12' ? new Ajv2020(options) : new Ajv(options);
  addFormats(ajv);
  return ajv;
}

/** The outcome of one check by a {@link LinearTimeJsonSchemaValidator} validator. */
export type LinearTimeValidationResult<T> =
  { valid: true; data: T; errorMessage: undefined } | { valid: false; data: undefined; errorMessage: string };

/**
 * A JSON Schema validator with the shape of the MCP SDK's `jsonSchemaValidator` (pass it as the
 * `jsonSchemaValidator` client option), built on {@link createLinearTimeAjv}: server-supplied
 * patterns are matched in linear time. Dialect as in the SDK's Ajv provider: draft-07 or
 * draft-06 when `$schema` says so, otherwise 2020-12 (2019-09 schemas run on the 2020-12 engine).
 * `getValidator` throws when the schema cannot be compiled, including for a pattern RE2 cannot run.
 */
export class LinearTimeJsonSchemaValidator {
  #draft07: Ajv | Ajv2020 | undefined;
  #draft2020: Ajv | Ajv2020 | undefined;

  /** Compile `schema` (throws when it cannot be compiled). */
  getValidator<T>(schema: object): (input: unknown) => LinearTimeValidationResult<T> {
    const $schema = (schema as { $schema?: unknown }).$schema;
    const draft07 = typeof $schema === 'string' && /draft-0[67]/.test($schema);
    const engine = draft07 ? (this.#draft07 ??= createLinearTimeAjv('draft-07')) : (this.#draft2020 ??= createLinearTimeAjv('2020-12'));
    // The root $id and $schema are left out: two schemas may share an $id, and $schema only picks the dialect.
    const { $id: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
    const validate = engine.compile(rest);
    return (input) =>
      validate(input)
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: engine.errorsText(validate.errors) };
  }
}
