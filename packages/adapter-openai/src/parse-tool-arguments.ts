import { AdapterError } from '@toolhost/contract';

/** Options of {@link parseToolArguments}. */
export interface ParseToolArgumentsOptions {
  /** The raw `arguments` string the model produced. */
  raw: string;
  /** The tool the model called, for the error message. */
  toolName: string;
  /** The call id, for the error. */
  callId?: string;
}

/**
 * Parse a tool call's `arguments` JSON string into an object (an empty string is `{}`).
 *
 * @throws AdapterError `INVALID_TOOL_ARGUMENTS` (with `toolName` and `callId`) when the string is not a JSON object.
 */
export function parseToolArguments(options: ParseToolArgumentsOptions): Record<string, unknown> {
  const { raw } = options;
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (cause) {
    throw invalidArguments(options, `is not valid JSON`, cause);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidArguments(options, 'is not a JSON object');
  }
  return parsed as Record<string, unknown>;
}

function invalidArguments(options: ParseToolArgumentsOptions, what: string, cause?: unknown): AdapterError {
  return new AdapterError({
    code: 'INVALID_TOOL_ARGUMENTS',
    message:
      `The arguments the model produced for tool '${options.toolName}' ${what}. ` +
      'Turn on strict mode (the default) so the API guarantees valid arguments, or retry the turn.',
    provider: 'openai',
    toolName: options.toolName,
    callId: options.callId,
    cause,
  });
}
