const BRAND = Symbol.for('toolhost.adapter-openai');

/** Stable codes of {@link OpenAIAdapterError}. */
export type OpenAIAdapterErrorCode =
  /** A tool call's `arguments` string was not a JSON object. */
  | 'INVALID_TOOL_ARGUMENTS'
  /** A sampling request got no text back from the model (blocked, empty or filtered). */
  | 'EMPTY_SAMPLING_RESPONSE';

/** Options of {@link OpenAIAdapterError}. */
export interface OpenAIAdapterErrorOptions {
  /** Stable code callers can switch on. */
  code: OpenAIAdapterErrorCode;
  /** What happened and what the user can do. */
  message: string;
  /** The tool the error concerns, when there is one. */
  toolName?: string;
  /** The model's finish reason, when the error comes from a response. */
  finishReason?: string;
  /** The vendor's tool call id, when the error concerns one call. */
  callId?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** Error raised by `@toolhost/adapter-openai`; match on `code`, never on the message. */
export class OpenAIAdapterError extends Error {
  /** Stable code callers can switch on. */
  readonly code: OpenAIAdapterErrorCode;
  /** The tool the error concerns, when there is one. */
  readonly toolName?: string;
  /** The model's finish reason, when the error comes from a response. */
  readonly finishReason?: string;
  /** The vendor's tool call id, when the error concerns one call. */
  readonly callId?: string;
  private readonly [BRAND] = true;

  constructor(options: OpenAIAdapterErrorOptions) {
    super(options.message, { cause: options.cause });
    this.name = 'OpenAIAdapterError';
    this.code = options.code;
    if (options.toolName !== undefined) this.toolName = options.toolName;
    if (options.finishReason !== undefined) this.finishReason = options.finishReason;
    if (options.callId !== undefined) this.callId = options.callId;
  }

  /** True for a `OpenAIAdapterError`, even one from another copy of this package. */
  static isInstance(error: unknown): error is OpenAIAdapterError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
  }
}
