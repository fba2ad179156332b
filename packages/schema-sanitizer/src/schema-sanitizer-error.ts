import { ToolhostError, type ErrorCode, type ToolhostErrorOptions } from '@toolhost/contract';

const SCHEMA_SANITIZER_ERROR_CODES = ['SCHEMA_TOO_LARGE', 'UNKNOWN_PROFILE'] as const satisfies readonly ErrorCode[];

/**
 * Stable codes of {@link SchemaSanitizerError} (each explained in the contract's `ERROR_CODES`);
 * match on these, never on message text:
 * - `SCHEMA_TOO_LARGE`: the schema has more nodes than `maxNodes` (or is a cyclic JavaScript object graph).
 * - `UNKNOWN_PROFILE`: `profile` is not one of the known profiles.
 */
export type SchemaSanitizerErrorCode = (typeof SCHEMA_SANITIZER_ERROR_CODES)[number];

/** Fields of a {@link SchemaSanitizerError}: the common `code`, `message`, `serverName`, `cause`, plus where in the schema. */
export interface SchemaSanitizerErrorOptions extends ToolhostErrorOptions<SchemaSanitizerErrorCode> {
  /** JSON pointer of the node where the failure was detected, when known. */
  readonly jsonPath?: string | undefined;
}

/**
 * The error of `@toolhost/schema-sanitizer` (family `schema-sanitizer`).
 *
 * @example
 * ```ts
 * if (SchemaSanitizerError.isInstance(e) && e.code === 'SCHEMA_TOO_LARGE') skipTool();
 * ```
 */
export class SchemaSanitizerError extends ToolhostError<SchemaSanitizerErrorCode> {
  /** The family of these errors: `schema-sanitizer`. */
  static override readonly family = 'schema-sanitizer';
  /** The codes a `SchemaSanitizerError` can carry. */
  static override readonly codes = SCHEMA_SANITIZER_ERROR_CODES;
  /** JSON pointer of the node where the failure was detected, when known. */
  readonly jsonPath: string | undefined;

  /** Create an error; `message` says what happened and what the caller can do. */
  constructor(options: SchemaSanitizerErrorOptions) {
    super(options);
    this.jsonPath = options.jsonPath;
  }
}
