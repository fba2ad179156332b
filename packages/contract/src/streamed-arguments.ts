import { AdapterError } from './adapter-error.js';
import { DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH, type ModelStreamOptions } from './model-stream.js';

/** Which tool call a streamed-arguments error is about. */
export interface StreamedCallRef {
  /** The tool the model called. */
  readonly toolName: string;
  /** The call id, when the vendor gave one. */
  readonly callId?: string | undefined;
}

/** The checks every adapter's stream accumulator makes on streamed tool arguments (see {@link streamedArgumentChecks}). */
export interface StreamedArgumentChecks {
  /** The argument limit from the options; throws `INVALID_OPTIONS` when it is not a positive integer. */
  resolveMaxArgumentsLength(options: ModelStreamOptions | undefined): number;
  /** Throws `TOOL_ARGUMENTS_TOO_LARGE` when `length` is over `limit`. */
  checkArgumentsLength(length: number, limit: number, call: StreamedCallRef): void;
  /** Parses a call's streamed JSON text into an object (an empty text is `fallback`); throws `INVALID_TOOL_ARGUMENTS` otherwise. */
  parseStreamedArguments(text: string, fallback: Record<string, unknown>, call: StreamedCallRef): Record<string, unknown>;
  /** An `INCOMPLETE_STREAM` error with `message`. */
  incompleteStream(message: string, call?: StreamedCallRef): AdapterError;
}

/**
 * The streamed-argument checks of one vendor adapter, its `AdapterError`s naming `provider`.
 *
 * @param provider - The adapter's provider name (`openai`, `anthropic`, `gemini`...).
 * @param field - What the vendor calls the arguments in its stream (`arguments`, `input`). @default 'arguments'
 */
export function streamedArgumentChecks(provider: string, field = 'arguments'): StreamedArgumentChecks {
  const invalidArguments = (call: StreamedCallRef, what: string, cause?: unknown): AdapterError =>
    new AdapterError({
      code: 'INVALID_TOOL_ARGUMENTS',
      message: `The ${field} the model streamed for tool '${call.toolName}' ${what}; the tool was not called. Retry the turn.`,
      provider,
      toolName: call.toolName,
      callId: call.callId,
      cause,
    });
  return {
    resolveMaxArgumentsLength(options) {
      const limit = options?.maxArgumentsLength ?? DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH;
      if (!Number.isSafeInteger(limit) || limit <= 0) {
        throw new AdapterError({
          code: 'INVALID_OPTIONS',
          message: `maxArgumentsLength must be a positive integer (a number of characters); got ${String(limit)}.`,
          provider,
        });
      }
      return limit;
    },
    checkArgumentsLength(length, limit, call) {
      if (length <= limit) return;
      throw new AdapterError({
        code: 'TOOL_ARGUMENTS_TOO_LARGE',
        message:
          `The ${field} the model streamed for tool '${call.toolName}' grew past ${limit} characters, so the stream was stopped ` +
          'and the tool not called. Raise maxArgumentsLength if the tool really takes that much, or retry the turn.',
        provider,
        toolName: call.toolName,
        callId: call.callId,
      });
    },
    parseStreamedArguments(text, fallback, call) {
      if (text.trim() === '') return fallback;
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (cause) {
        throw invalidArguments(call, `is not valid JSON (${(cause as Error).message}; it may have been cut off)`, cause);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidArguments(call, 'is not a JSON object');
      return parsed as Record<string, unknown>;
    },
    incompleteStream(message, call) {
      return new AdapterError({ code: 'INCOMPLETE_STREAM', message, provider, toolName: call?.toolName, callId: call?.callId });
    },
  };
}
