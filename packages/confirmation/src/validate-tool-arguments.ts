import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ArgumentIssue } from './confirmation-error.js';
import { ConfirmationError } from './confirmation-error.js';
import { createLinearTimeAjv } from './linear-time-regexp.js';

/** What to validate. */
export interface ValidateToolArgumentsOptions {
  /** The server (for the message). */
  serverName: string;
  /** The tool's name (for the message). */
  toolName: string;
  /** The tool's input schema; a missing one accepts any object. */
  inputSchema: unknown;
  /** The arguments the model produced (`undefined` counts as `{}`). */
  arguments: unknown;
}

/** The result of validating arguments. */
export type ArgumentValidationResult =
  /** Valid. `skipped` says why nothing was checked (the schema could not be compiled), when that happened. */
  | { readonly valid: true; readonly skipped?: string }
  /** Invalid: `error.message` is written for the model; `error.issues` lists each problem. */
  | { readonly valid: false; readonly error: ConfirmationError };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function describe(error: ErrorObject): ArgumentIssue {
  const path = error.instancePath;
  let message = error.message ?? 'is invalid';
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') message += ` ('${String(params['additionalProperty'])}')`;
  if (error.keyword === 'enum' && Array.isArray(params['allowedValues']))
    message += ` (${params['allowedValues'].map((v) => JSON.stringify(v)).join(', ')})`;
  return { path, message };
}

/**
 * Validates tool arguments against input schemas with Ajv (draft-07, or 2020-12 when the
 * schema's `$schema` says so), leniently: `strict: false`, unknown formats and keywords
 * ignored, and a schema that cannot be compiled is not enforced (the server validates).
 * Compiled validators are cached per schema object.
 *
 * Server-supplied `pattern` / `patternProperties` are matched by RE2 (see `linearTimeRegExp`),
 * in time linear in the argument, so a catastrophic pattern such as `(a+)+$` cannot block the
 * event loop. A pattern RE2 cannot run (backreference, lookaround) makes the whole schema
 * unchecked (`skipped` says which pattern): no freeze, no crash, and no call refused for a
 * keyword that was not understood; the server still validates its own input.
 */
export class ToolArgumentValidator {
  readonly #cache = new WeakMap<object, ValidateFunction | string>();
  #draft07: Ajv | Ajv2020 | undefined;
  #draft2020: Ajv | Ajv2020 | undefined;

  #compile(schema: Record<string, unknown>): ValidateFunction | string {
    const cached = this.#cache.get(schema);
    if (cached !== undefined) return cached;
    // The root $id and $schema are left out: two tools may share an $id, and $schema only picks the dialect.
    const { $id: _id, $schema, ...rest } = schema;
    let compiled: ValidateFunction | string;
    try {
      const is2020 = typeof $schema === 'string' && /2020-12|2019-09/.test($schema);
      compiled = is2020 ? this.#ajv2020().compile(rest) : this.#ajv07().compile(rest);
    } catch (error) {
      compiled = `the input schema could not be compiled: ${error instanceof Error ? error.message : String(error)}`;
    }
    this.#cache.set(schema, compiled);
    return compiled;
  }

  #ajv07(): Ajv | Ajv2020 {
    return (this.#draft07 ??= createLinearTimeAjv('draft-07'));
  }

  #ajv2020(): Ajv | Ajv2020 {
    return (this.#draft2020 ??= createLinearTimeAjv('2020-12'));
  }

  /** Check the arguments of one call. Never throws. */
  validate(options: ValidateToolArgumentsOptions): ArgumentValidationResult {
    const args = options.arguments === undefined ? {} : options.arguments;
    let issues: ArgumentIssue[];
    if (!isRecord(args)) {
      issues = [{ path: '', message: 'must be an object' }];
    } else {
      if (!isRecord(options.inputSchema)) return { valid: true };
      const validate = this.#compile(options.inputSchema);
      if (typeof validate === 'string') return { valid: true, skipped: validate };
      if (validate(args)) return { valid: true };
      issues = (validate.errors ?? []).map(describe);
    }
    const list = issues.map((issue) => `params${issue.path} ${issue.message}`).join('; ');
    const message = `Invalid arguments for tool '${options.toolName}' (MCP server '${options.serverName}'): ${list}. The tool was not called; fix the arguments and call it again.`;
    return {
      valid: false,
      error: new ConfirmationError({
        code: 'INVALID_TOOL_ARGUMENTS',
        message,
        serverName: options.serverName,
        toolName: options.toolName,
        issues,
      }),
    };
  }
}

const shared = new ToolArgumentValidator();

/**
 * Validate a tool call's arguments against the tool's input schema, before anyone is asked
 * (see {@link ToolArgumentValidator}).
 *
 * @example
 * const result = validateToolArguments({ serverName: 'github', toolName: 'create_issue', inputSchema, arguments: args });
 * if (!result.valid) return toModel(result.error.message);
 */
export function validateToolArguments(options: ValidateToolArgumentsOptions): ArgumentValidationResult {
  return shared.validate(options);
}
