// Public API of @toolhost/contract/tasks: the task store contract (a subpath, so that the root stays small).
export type { StoredTask, TaskStore } from './task-store.js';
