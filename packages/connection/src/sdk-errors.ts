import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { SkillVerificationError } from '@modelcontextprotocol/client/ext/skills';

// What a caller of a ConnectionClient needs to know about the MCP SDK's errors, without importing
// the SDK: its error classes stay out of toolhost's API (they are not toolhost errors).

/** Whether a request failed because it timed out (the SDK's `RequestTimeout`, also for an abort without an SDK reason). */
export function isRequestTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

/** Whether a request failed because the connection closed (the SDK's `ConnectionClosed`). */
export function isConnectionClosed(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
}

/** A JSON-RPC error a server answered a request with (the SDK's `ProtocolError`), as plain fields. */
export interface ServerErrorAnswer {
  /** The JSON-RPC error code. */
  readonly code: number;
  /** The server's message (untrusted text). */
  readonly message: string;
  /** The error's `data`, when the server sent some (untrusted). */
  readonly data: unknown;
}

/** The JSON-RPC error the server answered with, or undefined when `error` is not a server's error answer. */
export function serverErrorAnswer(error: unknown): ServerErrorAnswer | undefined {
  return error instanceof ProtocolError ? { code: error.code, message: error.message, data: error.data } : undefined;
}

/** JSON-RPC error codes a caller acts on. */
export const SERVER_ERROR_CODES = {
  /** The server does not know the parameters (for a task: it no longer knows the task). */
  invalidParams: ProtocolErrorCode.InvalidParams,
  /** The server needs the user to open URLs first (URL elicitation, MCP 2025-11-25); `data.elicitations` lists them. */
  urlElicitationRequired: ProtocolErrorCode.UrlElicitationRequired,
} as const;

/** Why a skill file failed verification against the server's skill entry (the SDK's `SkillVerificationError`). */
export interface SkillVerificationFailure {
  /** What failed: `unlisted` (the entry lists no such file), or the check that failed (`size`, `digest`, `frontmatter`, ...). */
  readonly reason: string;
  /** The URI of the file. */
  readonly uri: string;
}

/** The verification failure `error` stands for, or undefined when it is another error (see `readSkillFile`). */
export function skillVerificationFailure(error: unknown): SkillVerificationFailure | undefined {
  return error instanceof SkillVerificationError ? { reason: error.reason, uri: error.uri } : undefined;
}
