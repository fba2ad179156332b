import type { TaskRevision } from './tasks/task-wire.js';

/** `_meta` key of the token that stands for a task handle in a rewritten `tools/call` result (never sent to a server). */
export const TASK_HANDLE_META_KEY = 'dev.toolhost/task-handle';

/** A server's answer to `tools/call` that is a task handle rather than a result. */
export interface TaskHandle {
  /** Which wire form of tasks the server used. */
  readonly revision: TaskRevision;
  /** The task as the server sent it (unchecked; see `parseTask`). */
  readonly task: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The task handle a raw `tools/call` result is, if it is one: `resultType: "task"` (2026-07-28
 * Tasks extension, the task's fields inline) or a `task` object with a `taskId` (2025-11-25
 * `CreateTaskResult`).
 */
export function taskHandleOf(result: unknown): TaskHandle | undefined {
  if (!isObject(result)) return undefined;
  if (result['resultType'] === 'task') return { revision: 'modern', task: result };
  const task = result['task'];
  if (result['resultType'] === undefined && isObject(task) && typeof task['taskId'] === 'string') return { revision: 'legacy', task };
  return undefined;
}
