// Public API of @toolhost/connection/tasks: MCP tasks on the wire (2025-11-25 and the 2026-07-28 Tasks extension).
export {
  TASKS_EXTENSION_ID,
  MAX_STATUS_MESSAGE_LENGTH,
  MAX_TASK_ID_LENGTH,
  MAX_REQUEST_STATE_LENGTH,
  parseTask,
  isTaskShapeError,
  getTask,
  getLegacyTaskResult,
  cancelTask,
  updateTask,
  toCallToolResult,
} from './tasks/task-wire.js';
export type { TaskReference, TaskRequestOptions, TaskRevision, TaskState } from './tasks/task-wire.js';
export { TASK_HANDLE_META_KEY, taskHandleOf } from './task-handles.js';
export type { TaskHandle } from './task-handles.js';
