import { ToolhostError, type ToolhostErrorOptions } from './toolhost-error.js';

const ADAPTER_ERROR_CODES = [
  'INVALID_TOOL_CALL',
  'INVALID_TOOL_ARGUMENTS',
  'TOOL_ARGUMENTS_TOO_LARGE',
  'INCOMPLETE_STREAM',
  'EMPTY_SAMPLING_RESPONSE',
  'INVALID_OPTIONS',
  'VENDOR_LIMIT_EXCEEDED',
] as const;

/** Codes of {@link AdapterError}. */
export type AdapterErrorCode = (typeof ADAPTER_ERROR_CODES)[number];

/** Fields of an {@link AdapterError}. */
export interface AdapterErrorOptions extends ToolhostErrorOptions<AdapterErrorCode> {
  /** The vendor (`gemini`, `openai`, `anthropic`, ...). */
  readonly provider: string;
  /** The tool the error concerns, when there is one. */
  readonly toolName?: string | undefined;
  /** The vendor's tool call id, when the error concerns one call. */
  readonly callId?: string | undefined;
  /** The model's finish reason, when the error comes from a response. */
  readonly finishReason?: string | undefined;
  /** The vendor limit broken (a `VendorLimits` field such as `maxTools`, or `toolNames`), for `VENDOR_LIMIT_EXCEEDED`. */
  readonly limit?: string | undefined;
}

/**
 * An error raised by a model adapter (any vendor): a tool call it cannot read, a streamed
 * response that is incomplete or too large, a sampling request the model answered with nothing,
 * or tool declarations that would break a hard limit of the vendor (`VENDOR_LIMIT_EXCEEDED`, with
 * the limit in `limit`).
 *
 * @example
 * ```ts
 * if (AdapterError.isInstance(error) && error.code === 'EMPTY_SAMPLING_RESPONSE') console.log(error.finishReason);
 * ```
 */
export class AdapterError extends ToolhostError<AdapterErrorCode> {
  static override readonly family = 'adapter';
  static override readonly codes = ADAPTER_ERROR_CODES;
  /** The vendor (`gemini`, `openai`, `anthropic`, ...). */
  readonly provider: string;
  /** The tool the error concerns, when there is one. */
  readonly toolName: string | undefined;
  /** The vendor's tool call id, when the error concerns one call. */
  readonly callId: string | undefined;
  /** The model's finish reason, when the error comes from a response. */
  readonly finishReason: string | undefined;
  /** The vendor limit broken (a `VendorLimits` field such as `maxTools`, or `toolNames`), for `VENDOR_LIMIT_EXCEEDED`. */
  readonly limit: string | undefined;

  /** Create an error; see {@link AdapterErrorOptions}. */
  constructor(options: AdapterErrorOptions) {
    super(options);
    this.provider = options.provider;
    this.toolName = options.toolName;
    this.callId = options.callId;
    this.finishReason = options.finishReason;
    this.limit = options.limit;
  }
}
