const BRAND = Symbol.for('toolhost.schema-sanitizer');

/** Stable codes of {@link SchemaSanitizerError}; match on these, never on message text. */
export const SchemaSanitizerErrorCode = {
  /** The schema has more nodes than `maxNodes` (or is a cyclic JavaScript object graph). */
  SCHEMA_TOO_LARGE: 'SCHEMA_TOO_LARGE',
  /** `profile` is not one of the known profiles. */
  UNKNOWN_PROFILE: 'UNKNOWN_PROFILE',
} as const;

/** One of the values of {@link SchemaSanitizerErrorCode}. */
export type SchemaSanitizerErrorCode = (typeof SchemaSanitizerErrorCode)[keyof typeof SchemaSanitizerErrorCode];

/** Fields of a {@link SchemaSanitizerError}. */
export interface SchemaSanitizerErrorOptions {
  /** Stable code of the failure. */
  code: SchemaSanitizerErrorCode;
  /** JSON pointer of the node where the failure was detected, when known. */
  jsonPath?: string;
}

/**
 * Base class of every error raised by `@toolhost/schema-sanitizer`.
 *
 * @example
 * if (SchemaSanitizerError.isInstance(e) && e.code === 'SCHEMA_TOO_LARGE') skipTool();
 */
export class SchemaSanitizerError extends Error {
  private readonly [BRAND] = true;
  /** Stable code of the failure. */
  readonly code: SchemaSanitizerErrorCode;
  /** JSON pointer of the node where the failure was detected, when known. */
  readonly jsonPath: string | undefined;

  /** Create an error; `message` says what happened and what the caller can do. */
  constructor(message: string, options: SchemaSanitizerErrorOptions) {
    super(message);
    this.name = 'SchemaSanitizerError';
    this.code = options.code;
    this.jsonPath = options.jsonPath;
  }

  /** True for any `SchemaSanitizerError`, even one from another copy of this package. */
  static isInstance(error: unknown): error is SchemaSanitizerError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}
