import type { Task, TaskState } from '@a2a-js/sdk';

/**
 * Where an A2A server keeps its tasks: the shape of the `@a2a-js/sdk` task store (a database, for
 * tasks that outlive the process). `load` answers undefined for an unknown id.
 */
export interface A2aTaskStore {
  /** The task with this id, or undefined. */
  load(taskId: string): Promise<Task | undefined>;
  /** Create or replace the task. */
  save(task: Task): Promise<void>;
}

/** Options of {@link BoundedTaskStore}. */
export interface BoundedTaskStoreOptions {
  /** A store of the application's that keeps every task; without it the tasks are kept in memory, bounded. */
  readonly backing?: A2aTaskStore;
  /** Finished tasks kept; the one that finished first is forgotten first. */
  readonly maxFinishedTasks: number;
  /** How long a finished task is kept, in milliseconds. */
  readonly finishedTaskTtlMs: number;
  /** Messages kept in one task's history: the first (the request) and the newest. */
  readonly maxTaskHistory: number;
  /** Told about each finished task that is forgotten (its push notification configurations can go). */
  readonly onForget: (taskId: string) => void;
}

const FINAL_STATES: ReadonlySet<TaskState> = new Set<TaskState>(['completed', 'failed', 'canceled', 'rejected']);

/**
 * The task store of the A2A server: in memory, a task that still runs or waits is kept until it
 * ends, and of the finished ones only the last `maxFinishedTasks`, each for `finishedTaskTtlMs`
 * (a client that reads a forgotten task gets TaskNotFound). A task's history keeps its first
 * message and the newest, `maxTaskHistory` in all (a tool reporting progress for hours adds a
 * message per report). With a `backing` store of the
 * application's, every task stays there; only the bookkeeping of finished tasks (and the
 * forgetting of their push notification configurations) is done here.
 */
export class BoundedTaskStore implements A2aTaskStore {
  readonly #options: BoundedTaskStoreOptions;
  readonly #tasks = new Map<string, Task>();
  /** Finished task id → when it finished; oldest first. */
  readonly #finished = new Map<string, number>();

  /** Create an empty store. */
  constructor(options: BoundedTaskStoreOptions) {
    this.#options = options;
  }

  /** The task, or undefined when unknown or forgotten. */
  async load(taskId: string): Promise<Task | undefined> {
    this.#expire();
    if (this.#options.backing) return this.#options.backing.load(taskId);
    const task = this.#tasks.get(taskId);
    return task ? { ...task } : undefined;
  }

  /** Save the task; saving a finished one may forget the oldest finished ones. */
  async save(task: Task): Promise<void> {
    const history = task.history;
    const max = this.#options.maxTaskHistory;
    if (history && history.length > max) {
      // On the task given, not only on the copy kept: the SDK keeps appending to the object it
      // saves while the task runs, and so that object stays bounded too.
      task.history = [...history.slice(0, 1), ...history.slice(history.length - (max - 1))];
    }
    if (this.#options.backing) await this.#options.backing.save(task);
    else this.#tasks.set(task.id, { ...task });
    if (FINAL_STATES.has(task.status.state)) {
      this.#finished.delete(task.id);
      this.#finished.set(task.id, Date.now());
    } else {
      this.#finished.delete(task.id);
    }
    this.#expire();
  }

  /** Forget the finished tasks over the cap or past their time. */
  #expire(): void {
    const oldestKept = Date.now() - this.#options.finishedTaskTtlMs;
    for (const [taskId, finishedAt] of this.#finished) {
      if (this.#finished.size <= this.#options.maxFinishedTasks && finishedAt > oldestKept) break;
      this.#finished.delete(taskId);
      this.#tasks.delete(taskId);
      this.#options.onForget(taskId);
    }
  }
}
