const BRAND = Symbol.for('toolhost.adapter-gemini');

/** Stable codes of {@link GeminiAdapterError}. */
export type GeminiAdapterErrorCode =
  /** A `functionCall` part had no name, so it cannot be matched to a tool. */
  | 'INVALID_TOOL_CALL'
  /** A sampling request got no text back from the model (blocked, empty or filtered). */
  | 'EMPTY_SAMPLING_RESPONSE';

/** Options of {@link GeminiAdapterError}. */
export interface GeminiAdapterErrorOptions {
  /** Stable code callers can switch on. */
  code: GeminiAdapterErrorCode;
  /** What happened and what the user can do. */
  message: string;
  /** The tool the error concerns, when there is one. */
  toolName?: string;
  /** The model's finish reason, when the error comes from a response. */
  finishReason?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** Error raised by `@toolhost/adapter-gemini`; match on `code`, never on the message. */
export class GeminiAdapterError extends Error {
  /** Stable code callers can switch on. */
  readonly code: GeminiAdapterErrorCode;
  /** The tool the error concerns, when there is one. */
  readonly toolName?: string;
  /** The model's finish reason, when the error comes from a response. */
  readonly finishReason?: string;
  private readonly [BRAND] = true;

  constructor(options: GeminiAdapterErrorOptions) {
    super(options.message, { cause: options.cause });
    this.name = 'GeminiAdapterError';
    this.code = options.code;
    if (options.toolName !== undefined) this.toolName = options.toolName;
    if (options.finishReason !== undefined) this.finishReason = options.finishReason;
  }

  /** True for a `GeminiAdapterError`, even one from another copy of this package. */
  static isInstance(error: unknown): error is GeminiAdapterError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}
