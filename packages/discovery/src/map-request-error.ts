import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { DiscoveryError } from './discovery-error.js';

/** What a failed request was about. */
export interface RequestSubject {
  /** Server the request went to. */
  serverName: string;
  /** Human description, e.g. `tool 'echo'` or `resource 'file:///a'`. */
  description: string;
  /** Original tool or prompt name, when there is one. */
  toolName?: string | undefined;
  /** The caller's abort signal. */
  signal?: AbortSignal | undefined;
  /** The error to use when the connection went away, if known. */
  lostError?: DiscoveryError | undefined;
}

/** Turn whatever a request to a server threw into a {@link DiscoveryError} naming the server. */
export function mapRequestError(error: unknown, subject: RequestSubject): DiscoveryError {
  if (DiscoveryError.isInstance(error)) return error;
  const { serverName, description, toolName } = subject;
  const base = { serverName, toolName, cause: error };
  if (subject.signal?.aborted) {
    return new DiscoveryError({
      code: 'CANCELLED',
      message: `The request for ${description} of MCP server '${serverName}' was cancelled.`,
      ...base,
    });
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return (
      subject.lostError ??
      new DiscoveryError({
        code: 'CONNECTION_CLOSED',
        message: `MCP server '${serverName}' closed the connection during the request for ${description}.`,
        ...base,
      })
    );
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return new DiscoveryError({
      code: 'REQUEST_TIMEOUT',
      message: `MCP server '${serverName}' did not answer the request for ${description} in time; raise the entry's timeout if it needs longer.`,
      ...base,
    });
  }
  if (error instanceof ProtocolError) {
    const mcpCode = error.code;
    return new DiscoveryError({
      code: 'REQUEST_FAILED',
      message: `The request for ${description} of MCP server '${serverName}' failed: ${error.message}`,
      ...base,
      mcpCode,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new DiscoveryError({
    code: 'REQUEST_FAILED',
    message: `The request for ${description} of MCP server '${serverName}' failed: ${message}`,
    ...base,
  });
}
