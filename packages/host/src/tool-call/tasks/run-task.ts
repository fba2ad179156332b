import { SERVER_ERROR_CODES, serverErrorAnswer, type CallToolResult, type ConnectionClient } from '@toolhost/connection';
import {
  cancelTask,
  getLegacyTaskResult,
  getTask,
  isTaskShapeError,
  toCallToolResult,
  updateTask,
  type TaskReference,
  type TaskRevision,
  type TaskState,
} from '@toolhost/connection/tasks';
import { escapeControlText } from '@toolhost/contract';
import { HostError } from '../../host-error.js';

/** How often the host polls a task; see `HostTaskOptions`. */
export interface TaskPollOptions {
  /** Shortest interval between two polls. */
  readonly minPollIntervalMs: number;
  /** Longest interval between two polls. */
  readonly maxPollIntervalMs: number;
  /** Interval when the server suggests none. */
  readonly defaultPollIntervalMs: number;
}

/** One task to wait for. */
export interface TaskRun {
  /** The server running it. */
  readonly serverName: string;
  /** The tool name the model used (for messages). */
  readonly toolName: string;
  /** The wire form of tasks the server uses. */
  readonly revision: TaskRevision;
  /** Longest wait for the task, in milliseconds, from now. */
  readonly timeoutMs: number;
  /** Timeout of each request about the task (the server's timeout). */
  readonly requestTimeoutMs: number;
  /** Polling bounds. */
  readonly poll: TaskPollOptions;
  /** The caller's signal: aborting it cancels the task on the server. */
  readonly signal: AbortSignal | undefined;
  /** Aborted when the host closes: polling stops and the task is left running (and kept). */
  readonly closing: AbortSignal;
  /** Poll at once instead of waiting one interval first (a resumed task). */
  readonly pollFirst?: boolean;
  /** The server's current client (it changes when the server reconnects). */
  getClient(): ConnectionClient | undefined;
  /** Called with every state read from the server, the first one included. */
  onState(state: TaskState): void;
}

/** How a task ended for the host: its result, or an error; `keep` when the task stays outstanding (the host closed). */
export type TaskOutcome =
  | { readonly kind: 'result'; readonly result: CallToolResult }
  | { readonly kind: 'error'; readonly error: HostError; readonly keep: boolean };

/**
 * Most rounds of input requests (2026-07-28 `input_required`) the host answers for one task, as
 * the SDK bounds the rounds of one request: a server that asks again after every answer would
 * otherwise keep the user answering until the task's deadline. Past it the host cancels the task.
 */
export const MAX_TASK_INPUT_ROUNDS = 10;

/** The input requests of one task answered so far: their keys, and how many rounds. */
interface AnsweredInputs {
  readonly keys: Set<string>;
  rounds: number;
}

/** Longest wait for the acknowledgement of a `tasks/cancel`. */
const CANCEL_TIMEOUT_MS = 5_000;

/**
 * Wait for a task: poll `tasks/get` at the server's suggested interval (bounded by `poll`), answer
 * its input requests (2026-07-28 `tasks/update`; on 2025-11-25 `tasks/result` is asked, during
 * which the server sends its requests), and fetch the result (inline on 2026-07-28,
 * `tasks/result` on 2025-11-25). Never polls forever: at `timeoutMs` the task is cancelled and the
 * call fails with `REQUEST_TIMEOUT`. Aborting `signal` cancels the task (`CANCELLED`); closing the
 * host stops polling and leaves the task running (`CLOSED`, `keep`). Connection failures are
 * retried (backing off) until the deadline; a server that no longer knows the task gives
 * `TASK_FAILED`. Never throws.
 */
export async function runTask(run: TaskRun, initial: TaskState): Promise<TaskOutcome> {
  const deadline = Date.now() + run.timeoutMs;
  const reference: { taskId: string; requestState?: string | undefined } = { taskId: initial.taskId, requestState: initial.requestState };
  const stop = linkedSignal(run.signal, run.closing);
  const answered: AnsweredInputs = { keys: new Set(), rounds: 0 };
  let state = initial;
  let failures = 0;
  // A resumed task's first state is only what the host stored: poll before acting on it.
  let skipWait = run.pollFirst === true;
  let fresh = !skipWait;
  run.onState(state);
  try {
    for (;;) {
      if (run.closing.aborted) return closed(run, reference.taskId);
      if (run.signal?.aborted) return await cancelled(run, reference);
      if (fresh) {
        const settled = await act(run, state, reference, answered, deadline, stop.signal);
        if (settled) return settled;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) return await timedOut(run, reference, state);
      const interval = pollInterval(run.poll, state.pollIntervalMs, failures);
      if (!skipWait) await sleep(Math.min(interval, remaining), stop.signal);
      skipWait = false;
      if (run.closing.aborted || run.signal?.aborted) continue;
      const client = run.getClient();
      if (!client) {
        failures += 1;
        fresh = false;
        continue;
      }
      try {
        state = await getTask(client, reference, run.revision, {
          timeout: Math.min(run.requestTimeoutMs, Math.max(1, deadline - Date.now())),
          signal: stop.signal,
        });
        reference.requestState = state.requestState;
        failures = 0;
        fresh = true;
        run.onState(state);
      } catch (error) {
        if (run.closing.aborted || run.signal?.aborted) continue;
        const fatal = fatalError(run, reference.taskId, error);
        if (fatal) return { kind: 'error', error: fatal, keep: false };
        failures += 1;
        fresh = false;
      }
    }
  } finally {
    stop.dispose();
  }
}

/** What the current state asks of the host; an outcome when the task is over. */
async function act(
  run: TaskRun,
  state: TaskState,
  reference: TaskReference,
  answered: AnsweredInputs,
  deadline: number,
  signal: AbortSignal,
): Promise<TaskOutcome | undefined> {
  switch (state.status) {
    case 'completed':
      if (run.revision === 'modern') {
        // A CreateTaskResult never carries the result: the next tasks/get does.
        if (!('result' in state)) return undefined;
        return resultOutcome(run, state.taskId, state.result);
      }
      return legacyResult(run, state.taskId, deadline, signal);
    case 'failed': {
      const reason = state.error?.message ?? state.statusMessage ?? 'no reason given';
      return taskFailed(run, state.taskId, `failed: ${escapeControlText(reason, { maxLength: 2000 })}`);
    }
    case 'cancelled':
      return taskFailed(run, state.taskId, `was cancelled by the server${state.statusMessage ? ` (${state.statusMessage})` : ''}`);
    case 'input_required':
      if (run.revision === 'legacy') return legacyResult(run, state.taskId, deadline, signal);
      return answerInputRequests(run, state, reference, answered, deadline, signal);
    default:
      return undefined;
  }
}

/**
 * 2026-07-28 `input_required`: answer the requests not answered yet, then `tasks/update`; at most
 * {@link MAX_TASK_INPUT_ROUNDS} rounds, then the task is cancelled.
 */
async function answerInputRequests(
  run: TaskRun,
  state: TaskState,
  reference: TaskReference,
  answered: AnsweredInputs,
  deadline: number,
  signal: AbortSignal,
): Promise<TaskOutcome | undefined> {
  const pending = Object.entries(state.inputRequests ?? {}).filter(([key]) => !answered.keys.has(key));
  if (pending.length === 0) return undefined;
  const client = run.getClient();
  if (!client) return undefined;
  if (answered.rounds >= MAX_TASK_INPUT_ROUNDS) {
    await requestCancel(run, reference);
    return {
      kind: 'error',
      keep: false,
      error: new HostError({
        code: 'REQUEST_FAILED',
        serverName: run.serverName,
        toolName: run.toolName,
        message: `Tool "${run.toolName}" of MCP server "${run.serverName}" asked for input again after ${MAX_TASK_INPUT_ROUNDS} rounds of answers during task ${reference.taskId}; the host stopped answering and cancelled the task.`,
      }),
    };
  }
  answered.rounds += 1;
  try {
    const responses = await client.fulfilInputRequests(Object.fromEntries(pending), signal);
    for (const [key] of pending) answered.keys.add(key);
    await updateTask(client, reference, responses, { timeout: Math.min(run.requestTimeoutMs, Math.max(1, deadline - Date.now())), signal });
    return undefined;
  } catch (error) {
    if (run.closing.aborted || run.signal?.aborted) return undefined;
    await requestCancel(run, reference);
    const reason = escapeControlText(error instanceof Error ? error.message : String(error), { maxLength: 2000 });
    return {
      kind: 'error',
      keep: false,
      error: new HostError({
        code: 'REQUEST_FAILED',
        serverName: run.serverName,
        toolName: run.toolName,
        cause: error,
        message: `Tool "${run.toolName}" of MCP server "${run.serverName}" asked for input during task ${reference.taskId} and the host could not answer: ${reason}. The host cancelled the task.`,
      }),
    };
  }
}

/** 2025-11-25 `tasks/result`: the server answers when the task is over (and may ask for input meanwhile). */
async function legacyResult(run: TaskRun, taskId: string, deadline: number, signal: AbortSignal): Promise<TaskOutcome | undefined> {
  const client = run.getClient();
  if (!client) return undefined;
  try {
    const raw = await getLegacyTaskResult(client, taskId, { timeout: Math.max(1, deadline - Date.now()), signal });
    return resultOutcome(run, taskId, raw);
  } catch (error) {
    if (run.closing.aborted || run.signal?.aborted) return undefined;
    const answer = serverErrorAnswer(error);
    if (answer) {
      const reason = escapeControlText(answer.message, { maxLength: 2000 });
      return taskFailed(run, taskId, `failed: ${reason}`, error);
    }
    const fatal = fatalError(run, taskId, error);
    return fatal ? { kind: 'error', error: fatal, keep: false } : undefined;
  }
}

function resultOutcome(run: TaskRun, taskId: string, raw: unknown): TaskOutcome {
  const result = toCallToolResult(raw);
  if (typeof result !== 'string') return { kind: 'result', result };
  return {
    kind: 'error',
    keep: false,
    error: new HostError({
      code: 'INVALID_RESPONSE',
      serverName: run.serverName,
      toolName: run.toolName,
      message: `Tool "${run.toolName}" of MCP server "${run.serverName}" finished task ${taskId}, but ${result}.`,
    }),
  };
}

function taskFailed(run: TaskRun, taskId: string, what: string, cause?: unknown): TaskOutcome {
  return {
    kind: 'error',
    keep: false,
    error: new HostError({
      code: 'TASK_FAILED',
      serverName: run.serverName,
      toolName: run.toolName,
      ...(cause !== undefined ? { cause } : {}),
      message: `Tool "${run.toolName}" of MCP server "${run.serverName}" ran as task ${taskId}, which ${what}`,
    }),
  };
}

/** An error that ends the wait (the server answered, but not with a usable task); undefined for a transient failure. */
function fatalError(run: TaskRun, taskId: string, error: unknown): HostError | undefined {
  if (isTaskShapeError(error)) {
    return new HostError({
      code: 'INVALID_RESPONSE',
      serverName: run.serverName,
      toolName: run.toolName,
      message: `MCP server "${run.serverName}" answered about task ${taskId} of tool "${run.toolName}" with a task the host cannot use: ${error.message}.`,
    });
  }
  const answer = serverErrorAnswer(error);
  if (!answer) return undefined;
  const reason = escapeControlText(answer.message, { maxLength: 2000 });
  if (answer.code === SERVER_ERROR_CODES.invalidParams) {
    return new HostError({
      code: 'TASK_FAILED',
      serverName: run.serverName,
      toolName: run.toolName,
      cause: error,
      message: `MCP server "${run.serverName}" no longer knows task ${taskId} of tool "${run.toolName}" (it expired, or the server lost it): ${reason}`,
    });
  }
  return new HostError({
    code: 'REQUEST_FAILED',
    serverName: run.serverName,
    toolName: run.toolName,
    cause: error,
    message: `Polling task ${taskId} of tool "${run.toolName}" on MCP server "${run.serverName}" failed: ${reason}`,
  });
}

function closed(run: TaskRun, taskId: string): TaskOutcome {
  return {
    kind: 'error',
    keep: true,
    error: new HostError({
      code: 'CLOSED',
      serverName: run.serverName,
      toolName: run.toolName,
      message: `The host was closed while tool "${run.toolName}" of MCP server "${run.serverName}" ran as task ${taskId}; the task was left running, and a new host can pick it up with host.tasks.resume({ serverName: ${JSON.stringify(run.serverName)}, taskId: ${JSON.stringify(taskId)} }).`,
    }),
  };
}

async function cancelled(run: TaskRun, reference: TaskReference): Promise<TaskOutcome> {
  await requestCancel(run, reference);
  return {
    kind: 'error',
    keep: false,
    error: new HostError({
      code: 'CANCELLED',
      serverName: run.serverName,
      toolName: run.toolName,
      message: `The call to tool "${run.toolName}" of MCP server "${run.serverName}" was cancelled; the host asked the server to cancel task ${reference.taskId}.`,
    }),
  };
}

async function timedOut(run: TaskRun, reference: TaskReference, state: TaskState): Promise<TaskOutcome> {
  await requestCancel(run, reference);
  const last = `${state.status}${state.statusMessage ? `: ${state.statusMessage}` : ''}`;
  return {
    kind: 'error',
    keep: false,
    error: new HostError({
      code: 'REQUEST_TIMEOUT',
      serverName: run.serverName,
      toolName: run.toolName,
      message: `Tool "${run.toolName}" of MCP server "${run.serverName}" did not finish within ${run.timeoutMs} ms (task ${reference.taskId}, last status ${last}); the host asked the server to cancel the task. Raise tasks.timeoutMs (or the server's timeout) for longer tasks.`,
    }),
  };
}

/** `tasks/cancel`, best effort: a failure is ignored (the server may have finished or forgotten the task). */
async function requestCancel(run: TaskRun, reference: TaskReference): Promise<void> {
  const client = run.getClient();
  if (!client || run.closing.aborted) return;
  await cancelTask(client, reference, run.revision, {
    timeout: Math.min(CANCEL_TIMEOUT_MS, run.requestTimeoutMs),
    signal: run.closing,
  }).catch(() => undefined);
}

/** The next wait: the server's hint (or the default) within the bounds, doubled per failure in a row. */
function pollInterval(poll: TaskPollOptions, hint: number | undefined, failures: number): number {
  const base = Math.min(Math.max(hint ?? poll.defaultPollIntervalMs, poll.minPollIntervalMs), poll.maxPollIntervalMs);
  return Math.min(base * 2 ** Math.min(failures, 6), poll.maxPollIntervalMs);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** One signal aborted when either given signal aborts. */
function linkedSignal(...signals: Array<AbortSignal | undefined>): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
  for (const signal of live) {
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', abort, { once: true });
  }
  return { signal: controller.signal, dispose: () => live.forEach((signal) => signal.removeEventListener('abort', abort)) };
}
