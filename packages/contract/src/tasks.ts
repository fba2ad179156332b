// Public API of @toolhost/contract/tasks: MCP tasks as toolhost sees them, the task a tool call
// runs as (ToolCall.task) and the store a host keeps outstanding tasks in. A subpath, so that the
// root stays small; most applications never name these types.
export type { StoredTask, TaskStore } from './task-store.js';
export type { ToolCallTask, ToolCallTaskStatus } from './tool-call.js';
