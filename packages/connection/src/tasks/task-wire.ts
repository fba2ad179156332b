import { isCallToolResult, type CallToolResult, type Client } from '@modelcontextprotocol/client';
import { escapeControlText } from '@toolhost/contract';
import type { ToolCallTaskStatus } from '@toolhost/contract/tasks';
import { ConnectionError } from '../connection-error.js';

/**
 * The two wire forms of MCP tasks: `legacy` is the experimental core feature of 2025-11-25
 * (`params.task` on `tools/call`, `CreateTaskResult { task }`, `tasks/get`, `tasks/result`,
 * `tasks/cancel`, `ttl` and `pollInterval` in milliseconds); `modern` is the Tasks extension of
 * 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663: the server answers `tools/call` with
 * `resultType: "task"`, `tasks/get` carries the result or error inline, `tasks/update` answers
 * `input_required`, `tasks/cancel` is an acknowledgement, `ttlSeconds`, `pollIntervalMilliseconds`
 * and an opaque `requestState` echoed on every request).
 */
export type TaskRevision = 'legacy' | 'modern';

/** The extension identifier of the 2026-07-28 Tasks extension. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** Longest status message kept from a server, in characters (before escaping). */
export const MAX_STATUS_MESSAGE_LENGTH = 500;
/** Longest task id accepted from a server. */
export const MAX_TASK_ID_LENGTH = 256;
/** Longest `requestState` accepted from a server (it is stored and sent back). */
export const MAX_REQUEST_STATE_LENGTH = 16_384;
/** Poll intervals above this (one day) are absurd and ignored. */
const ABSURD_POLL_INTERVAL_MS = 86_400_000;

const STATUSES: ReadonlySet<string> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** A task as the host keeps it after reading what the server sent (server data checked and bounded). */
export interface TaskState {
  /** The server's task id (checked: a non-empty string of at most {@link MAX_TASK_ID_LENGTH} visible characters). */
  readonly taskId: string;
  /** The status. */
  readonly status: ToolCallTaskStatus;
  /** The status message, escaped and cut. */
  readonly statusMessage?: string;
  /** Lifetime from creation in milliseconds, `null` for unlimited, absent when the server said nothing usable. */
  readonly ttlMs?: number | null;
  /** The poll interval the server suggests, when it is a sane number of milliseconds. */
  readonly pollIntervalMs?: number;
  /** The opaque state to send back (2026-07-28). */
  readonly requestState?: string;
  /** The inlined result of a completed task (2026-07-28 `tasks/get`). */
  readonly result?: unknown;
  /** The inlined JSON-RPC error of a failed task (2026-07-28 `tasks/get`). */
  readonly error?: { readonly code?: number; readonly message?: string };
  /** Outstanding requests to the client (2026-07-28, `input_required`). */
  readonly inputRequests?: Readonly<Record<string, unknown>>;
}

/** The error for a task the server sent that cannot be used (`INVALID_RESPONSE`); `message` says what was wrong. */
function taskShapeError(message: string): ConnectionError {
  return new ConnectionError({ code: 'INVALID_RESPONSE', message });
}

/** Whether `error` says the server sent a task that cannot be used (thrown by {@link parseTask} and {@link getTask}). */
export function isTaskShapeError(error: unknown): error is ConnectionError {
  return ConnectionError.isInstance(error) && error.code === 'INVALID_RESPONSE';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Read a task the server sent (a `CreateTaskResult`, a `tasks/get` result). Everything is checked:
 * an unusable id, status or `requestState` is an error; a bad `ttl`, poll interval or message is
 * dropped; the message is escaped (no control characters) and cut.
 *
 * @throws ConnectionError `INVALID_RESPONSE` when the task cannot be used (see {@link isTaskShapeError}).
 */
export function parseTask(raw: unknown, revision: TaskRevision): TaskState {
  if (!isObject(raw)) throw taskShapeError('the task is not a JSON object');
  const { taskId, status } = raw;
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > MAX_TASK_ID_LENGTH || !/^[\x21-\x7e]+$/.test(taskId)) {
    throw taskShapeError(`the task id is not a string of 1 to ${MAX_TASK_ID_LENGTH} visible ASCII characters`);
  }
  if (typeof status !== 'string' || !STATUSES.has(status)) {
    throw taskShapeError(`task ${taskId} has an unknown status ${JSON.stringify(escapeControlText(String(status), { maxLength: 40 }))}`);
  }
  const message = raw['statusMessage'];
  const ttl = revision === 'modern' ? secondsToMs(raw['ttlSeconds']) : millis(raw['ttl']);
  const poll = revision === 'modern' ? raw['pollIntervalMilliseconds'] : raw['pollInterval'];
  const requestState = raw['requestState'];
  if (revision === 'modern' && requestState !== undefined) {
    if (typeof requestState !== 'string') throw taskShapeError(`task ${taskId} has a requestState that is not a string`);
    if (requestState.length > MAX_REQUEST_STATE_LENGTH) {
      throw taskShapeError(
        `task ${taskId} has a requestState of ${requestState.length} characters (the limit is ${MAX_REQUEST_STATE_LENGTH})`,
      );
    }
  }
  const error = raw['error'];
  const inputRequests = raw['inputRequests'];
  return {
    taskId,
    status: status as ToolCallTaskStatus,
    ...(typeof message === 'string' && message.length > 0
      ? { statusMessage: escapeControlText(message, { maxLength: MAX_STATUS_MESSAGE_LENGTH }) }
      : {}),
    ...(ttl !== undefined ? { ttlMs: ttl } : {}),
    ...(typeof poll === 'number' && Number.isFinite(poll) && poll > 0 && poll <= ABSURD_POLL_INTERVAL_MS ? { pollIntervalMs: poll } : {}),
    ...(revision === 'modern' && typeof requestState === 'string' ? { requestState } : {}),
    ...(revision === 'modern' && status === 'completed' && 'result' in raw ? { result: raw['result'] } : {}),
    ...(revision === 'modern' && status === 'failed' && isObject(error)
      ? {
          error: {
            ...(typeof error['code'] === 'number' ? { code: error['code'] } : {}),
            ...(typeof error['message'] === 'string' ? { message: error['message'] } : {}),
          },
        }
      : {}),
    ...(revision === 'modern' && status === 'input_required' && isObject(inputRequests) ? { inputRequests } : {}),
  };
}

function millis(value: unknown): number | null | undefined {
  if (value === null) return null;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

function secondsToMs(value: unknown): number | null | undefined {
  const seconds = millis(value);
  return typeof seconds === 'number' ? seconds * 1000 : seconds;
}

/** A result schema that accepts any answer: the host checks the answers itself. */
const ANY_RESULT = {
  '~standard': {
    version: 1 as const,
    vendor: 'toolhost',
    validate: (value: unknown) => ({ value }),
  },
};

/** Options of one task request. */
export interface TaskRequestOptions {
  /** Timeout of the request, in milliseconds. */
  readonly timeout: number;
  /** Aborts the request. */
  readonly signal?: AbortSignal;
}

/** Where a task is and the state to echo: the parameters of `tasks/get`, `tasks/update`, `tasks/cancel`. */
export interface TaskReference {
  /** The task id. */
  readonly taskId: string;
  /** The latest `requestState` received (2026-07-28). */
  readonly requestState?: string | undefined;
}

function referenceParams(reference: TaskReference, revision: TaskRevision): Record<string, unknown> {
  return {
    taskId: reference.taskId,
    ...(revision === 'modern' && reference.requestState !== undefined ? { requestState: reference.requestState } : {}),
  };
}

/** `tasks/get`: the task's current state. @throws the SDK's error, or a `ConnectionError` `INVALID_RESPONSE` (see {@link isTaskShapeError}). */
export async function getTask(
  client: Client,
  reference: TaskReference,
  revision: TaskRevision,
  options: TaskRequestOptions,
): Promise<TaskState> {
  const raw = await client.request({ method: 'tasks/get', params: referenceParams(reference, revision) }, ANY_RESULT, options);
  const state = parseTask(raw, revision);
  if (state.taskId !== reference.taskId) throw taskShapeError(`tasks/get for task ${reference.taskId} answered task ${state.taskId}`);
  return state;
}

/** `tasks/result` (2025-11-25): the final result; the server holds the request until the task ends. */
export async function getLegacyTaskResult(client: Client, taskId: string, options: TaskRequestOptions): Promise<unknown> {
  return client.request({ method: 'tasks/result', params: { taskId } }, ANY_RESULT, options);
}

/** `tasks/cancel`: ask the server to stop the task (it may finish anyway). */
export async function cancelTask(
  client: Client,
  reference: TaskReference,
  revision: TaskRevision,
  options: TaskRequestOptions,
): Promise<void> {
  await client.request({ method: 'tasks/cancel', params: referenceParams(reference, revision) }, ANY_RESULT, options);
}

/** `tasks/update` (2026-07-28): answers to the task's input requests. */
export async function updateTask(
  client: Client,
  reference: TaskReference,
  inputResponses: Readonly<Record<string, unknown>>,
  options: TaskRequestOptions,
): Promise<void> {
  await client.request(
    { method: 'tasks/update', params: { ...referenceParams(reference, 'modern'), inputResponses } },
    ANY_RESULT,
    options,
  );
}

/**
 * The final result of a task as a `CallToolResult` (checked with the SDK's schema, as a direct
 * answer to `tools/call` would be), or an error message when it is not one.
 */
export function toCallToolResult(value: unknown): CallToolResult | string {
  if (!isObject(value)) return 'the task result is not a JSON object';
  const content = value['content'] ?? [];
  if (!Array.isArray(content)) return 'the task result has a `content` that is not a list';
  const { resultType: _resultType, ...rest } = value;
  const candidate = { ...rest, content };
  return isCallToolResult(candidate) ? candidate : 'the task result is not a valid tool result (CallToolResult)';
}
