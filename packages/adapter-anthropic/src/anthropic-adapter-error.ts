const BRAND = Symbol.for('toolhost.adapter-anthropic');

/** Stable codes of {@link AnthropicAdapterError}. */
export type AnthropicAdapterErrorCode =
  /** A `tool_use` block's `input` was not a JSON object. */
  | 'INVALID_TOOL_ARGUMENTS'
  /** A sampling request got no text back from the model (blocked, empty or filtered). */
  | 'EMPTY_SAMPLING_RESPONSE';

/** Options of {@link AnthropicAdapterError}. */
export interface AnthropicAdapterErrorOptions {
  /** Stable code callers can switch on. */
  code: AnthropicAdapterErrorCode;
  /** What happened and what the user can do. */
  message: string;
  /** The tool the error concerns, when there is one. */
  toolName?: string;
  /** The model's finish reason, when the error comes from a response. */
  finishReason?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** Error raised by `@toolhost/adapter-anthropic`; match on `code`, never on the message. */
export class AnthropicAdapterError extends Error {
  /** Stable code callers can switch on. */
  readonly code: AnthropicAdapterErrorCode;
  /** The tool the error concerns, when there is one. */
  readonly toolName?: string;
  /** The model's finish reason, when the error comes from a response. */
  readonly finishReason?: string;
  private readonly [BRAND] = true;

  constructor(options: AnthropicAdapterErrorOptions) {
    super(options.message, { cause: options.cause });
    this.name = 'AnthropicAdapterError';
    this.code = options.code;
    if (options.toolName !== undefined) this.toolName = options.toolName;
    if (options.finishReason !== undefined) this.finishReason = options.finishReason;
  }

  /** True for a `AnthropicAdapterError`, even one from another copy of this package. */
  static isInstance(error: unknown): error is AnthropicAdapterError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}
