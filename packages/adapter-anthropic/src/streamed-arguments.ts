import { AdapterError, DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH, type ModelStreamOptions } from '@toolhost/contract';

const PROVIDER = 'anthropic';

/** Which call an error is about. */
interface CallRef {
  readonly toolName: string;
  readonly callId?: string | undefined;
}

/**
 * The argument limit from the options, checked.
 *
 * @throws AdapterError `INVALID_OPTIONS` when `maxArgumentsLength` is not a positive integer.
 */
export function resolveMaxArgumentsLength(options: ModelStreamOptions | undefined): number {
  const limit = options?.maxArgumentsLength ?? DEFAULT_MAX_TOOL_ARGUMENTS_LENGTH;
  if (!Number.isSafeInteger(limit) || limit <= 0) {
    throw new AdapterError({
      code: 'INVALID_OPTIONS',
      message: `maxArgumentsLength must be a positive integer (a number of characters); got ${String(limit)}.`,
      provider: PROVIDER,
    });
  }
  return limit;
}

/** @throws AdapterError `TOOL_ARGUMENTS_TOO_LARGE` when `length` is over `limit`. */
export function checkArgumentsLength(length: number, limit: number, call: CallRef): void {
  if (length <= limit) return;
  throw new AdapterError({
    code: 'TOOL_ARGUMENTS_TOO_LARGE',
    message:
      `The arguments the model streamed for tool '${call.toolName}' grew past ${limit} characters, so the stream was stopped ` +
      'and the tool not called. Raise maxArgumentsLength if the tool really takes that much, or retry the turn.',
    provider: PROVIDER,
    toolName: call.toolName,
    callId: call.callId,
  });
}

/**
 * Parse a tool call's streamed `input` JSON text into an object (an empty text is `fallback`).
 *
 * @throws AdapterError `INVALID_TOOL_ARGUMENTS` when the text is not a JSON object.
 */
export function parseStreamedArguments(text: string, fallback: Record<string, unknown>, call: CallRef): Record<string, unknown> {
  if (text.trim() === '') return fallback;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw invalidArguments(call, `is not valid JSON (${(cause as Error).message}; it may have been cut off)`, cause);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidArguments(call, 'is not a JSON object');
  return parsed as Record<string, unknown>;
}

function invalidArguments(call: CallRef, what: string, cause?: unknown): AdapterError {
  return new AdapterError({
    code: 'INVALID_TOOL_ARGUMENTS',
    message: `The input the model streamed for tool '${call.toolName}' ${what}; the tool was not called. Retry the turn.`,
    provider: PROVIDER,
    toolName: call.toolName,
    callId: call.callId,
    cause,
  });
}

/** An `INCOMPLETE_STREAM` error with `message`. */
export function incompleteStream(message: string, call?: CallRef): AdapterError {
  return new AdapterError({
    code: 'INCOMPLETE_STREAM',
    message,
    provider: PROVIDER,
    toolName: call?.toolName,
    callId: call?.callId,
  });
}
