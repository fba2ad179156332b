import { escapeControlText } from '@toolhost/contract';
import type { HostEventEmitter } from '../../host-events.js';
import { HostError } from '../../host-error.js';
import type { TaskOutcome, TaskPollOptions } from './run-task.js';
import { MAX_STORED_TASKS, type StoredTask, type TaskStore } from './task-store.js';

/** The host's task settings with their defaults applied. */
export interface ResolvedTaskOptions extends TaskPollOptions {
  /** Run tools whose `taskSupport` is `optional` as tasks too (2025-11-25). */
  readonly optionalTools: boolean;
  /** Longest wait for one task; undefined: the server's timeout. */
  readonly timeoutMs: number | undefined;
  /** `ttl` asked for on 2025-11-25; undefined: the task's timeout. */
  readonly ttlMs: number | undefined;
}

function keyOf(serverName: string, taskId: string): string {
  return `${serverName}\u0000${taskId}`;
}

/**
 * The tasks a host waits for: the ones polled right now (so a resume joins them) and the
 * outstanding ones kept in the {@link TaskStore} (so a later host can resume them). Writes are
 * serialised; a store that cannot be written is reported as a `warning` event (`STORE_FAILED`)
 * and never fails a tool call.
 */
export class TaskRegistry {
  /** The settings. */
  readonly options: ResolvedTaskOptions;
  readonly #store: TaskStore;
  readonly #events: HostEventEmitter;
  readonly #closing = new AbortController();
  readonly #running = new Map<string, { readonly wait: Promise<TaskOutcome>; readonly stop: AbortController }>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(fields: { readonly options: ResolvedTaskOptions; readonly store: TaskStore; readonly events: HostEventEmitter }) {
    this.options = fields.options;
    this.#store = fields.store;
    this.#events = fields.events;
  }

  /** Aborted when the host closes. */
  get closing(): AbortSignal {
    return this.#closing.signal;
  }

  /** Stop every wait (the tasks stay outstanding in the store). */
  close(): void {
    this.#closing.abort();
  }

  /** Resolves when every write queued so far is done. */
  async flush(): Promise<void> {
    await this.#queue.catch(() => undefined);
  }

  /** The wait in progress for this task, if there is one. */
  running(serverName: string, taskId: string): Promise<TaskOutcome> | undefined {
    return this.#running.get(keyOf(serverName, taskId))?.wait;
  }

  /** Note a wait in progress until it settles; `stop` cancels it (see {@link TaskRegistry.cancelRunning}). */
  track(serverName: string, taskId: string, wait: Promise<TaskOutcome>, stop: AbortController): void {
    const key = keyOf(serverName, taskId);
    const entry = { wait, stop };
    this.#running.set(key, entry);
    void wait.finally(() => {
      if (this.#running.get(key) === entry) this.#running.delete(key);
    });
  }

  /** Cancel the wait in progress for a task (it sends `tasks/cancel` and ends `CANCELLED`); false when there is none. */
  cancelRunning(serverName: string, taskId: string): Promise<TaskOutcome> | undefined {
    const entry = this.#running.get(keyOf(serverName, taskId));
    entry?.stop.abort();
    return entry?.wait;
  }

  /**
   * The stored tasks, expired ones dropped (and removed from the store).
   * @throws HostError `STORE_FAILED` when the store cannot be read.
   */
  async list(): Promise<StoredTask[]> {
    await this.#queue.catch(() => undefined);
    const tasks = [...(await this.#store.load())];
    const now = Date.now();
    const live = tasks.filter(
      (task) =>
        task.expiresAt === undefined || !(Date.parse(task.expiresAt) < now) || this.#running.has(keyOf(task.serverName, task.taskId)),
    );
    if (live.length !== tasks.length) {
      const expired = new Set(tasks.filter((task) => !live.includes(task)).map((task) => keyOf(task.serverName, task.taskId)));
      await this.#mutate((stored) => stored.filter((task) => !expired.has(keyOf(task.serverName, task.taskId))));
    }
    return live;
  }

  /** Keep a new outstanding task. */
  put(task: StoredTask): Promise<void> {
    const key = keyOf(task.serverName, task.taskId);
    return this.#mutate((stored) =>
      [...stored.filter((other) => keyOf(other.serverName, other.taskId) !== key), task].slice(-MAX_STORED_TASKS),
    );
  }

  /**
   * Record what was last seen of a stored task: its status and message, and its latest
   * `requestState` (none when the server's latest message had none: it must not be sent back then).
   */
  update(
    serverName: string,
    taskId: string,
    seen: { readonly status: string; readonly statusMessage?: string; readonly requestState?: string },
  ): Promise<void> {
    const key = keyOf(serverName, taskId);
    return this.#mutate((stored) =>
      stored.map((task) => {
        if (keyOf(task.serverName, task.taskId) !== key) return task;
        const { requestState: _state, status: _status, statusMessage: _message, ...rest } = task;
        return {
          ...rest,
          status: seen.status,
          ...(seen.statusMessage !== undefined ? { statusMessage: seen.statusMessage } : {}),
          ...(seen.requestState !== undefined ? { requestState: seen.requestState } : {}),
        };
      }),
    );
  }

  /** Forget a task (finished, cancelled, failed or given up). */
  remove(serverName: string, taskId: string): Promise<void> {
    const key = keyOf(serverName, taskId);
    return this.#mutate((stored) => stored.filter((task) => keyOf(task.serverName, task.taskId) !== key));
  }

  /** One read-modify-write of the store, after the previous ones; a failure becomes a warning. */
  #mutate(change: (tasks: readonly StoredTask[]) => StoredTask[]): Promise<void> {
    const next = this.#queue.then(async () => {
      try {
        await this.#store.save(change(await this.#store.load()));
      } catch (error) {
        this.#events.emit('warning', {
          code: 'STORE_FAILED',
          message: escapeControlText(
            HostError.isInstance(error)
              ? error.message
              : `Could not update the MCP task store: ${error instanceof Error ? error.message : String(error)}`,
          ),
        });
      }
    });
    this.#queue = next;
    return next;
  }
}
