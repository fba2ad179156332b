import { ConnectionError } from '@toolhost/connection';
import { HostError } from './host-error.js';

/**
 * `error` as the host's callers see it: a `ConnectionError` of `@toolhost/connection` becomes a
 * {@link HostError} with the same code, message, server and URI (the original as its `cause`), so
 * that everything `McpToolHost` throws stays a `HostError`; any other error is returned as it is.
 */
export function hostErrorFrom(error: unknown): unknown {
  if (!ConnectionError.isInstance(error)) return error;
  return new HostError({
    code: error.code,
    message: error.message,
    ...(error.serverName !== undefined ? { serverName: error.serverName } : {}),
    ...(error.uri !== undefined ? { uri: error.uri } : {}),
    cause: error,
  });
}

/** `run()`, with a `ConnectionError` it throws or rejects with turned into a {@link HostError} (see {@link hostErrorFrom}). */
export async function withHostErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw hostErrorFrom(error);
  }
}
