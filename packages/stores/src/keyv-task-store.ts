import type { StoredTask, TaskStore } from '@toolhost/contract/tasks';
import { StoresError } from './stores-error.js';
import type { UserStoreContext } from './user-store-context.js';
import { userDocumentKey, userLockId } from './user-keys.js';

/** A user's tasks as stored. */
interface TaskDocument {
  readonly format: 'toolhost-tasks';
  readonly v: 1;
  readonly tasks: readonly StoredTask[];
}

const WHAT = 'tasks';

/**
 * A `TaskStore` (`@toolhost/contract/tasks`, the task store of `@toolhost/host`) for one user, on a Keyv backend: the tasks the user's host
 * is waiting for, so that a host created later (after a restart, or on another instance) can
 * resume them with `host.tasks`. Not encrypted (it holds server names, task ids and statuses,
 * never arguments or results). Create it with `createKeyvStores`.
 */
export class KeyvTaskStore implements TaskStore {
  readonly #context: UserStoreContext;
  readonly #key: string;

  /** @internal Created by `createKeyvStores`. */
  constructor(context: UserStoreContext) {
    this.#context = context;
    this.#key = userDocumentKey(context.user, 'tasks');
  }

  /** The user whose tasks these are. */
  get user(): string {
    return this.#context.user;
  }

  /** Every stored task of the user. */
  async load(): Promise<readonly StoredTask[]> {
    const stored = await this.#context.access.read(this.#key, WHAT);
    if (stored === undefined) return [];
    const document = stored as Partial<TaskDocument> | null;
    if (document?.format !== 'toolhost-tasks' || !Array.isArray(document.tasks)) {
      throw new StoresError({
        code: 'STORE_FAILED',
        user: this.user,
        message: `The stored tasks of user "${this.user}" are not a task document of @toolhost/stores. Delete the key ${this.#key} to start over (the host then forgets the tasks it was waiting for).`,
      });
    }
    return document.tasks.filter(isTask);
  }

  /** Replaces the user's stored tasks. */
  async save(tasks: readonly StoredTask[]): Promise<void> {
    const document: TaskDocument = { format: 'toolhost-tasks', v: 1, tasks: [...tasks] };
    await this.#context.access.withLock(
      userLockId(this.user, 'write', 'tasks'),
      () => this.#context.access.write(this.#key, document, WHAT),
      this.#context.timing,
    );
  }
}

function isTask(value: unknown): value is StoredTask {
  if (typeof value !== 'object' || value === null) return false;
  const task = value as Record<string, unknown>;
  return ['serverName', 'taskId', 'toolCallId', 'toolName', 'serverToolName', 'createdAt', 'protocolVersion'].every(
    (key) => typeof task[key] === 'string' && task[key] !== '',
  );
}
