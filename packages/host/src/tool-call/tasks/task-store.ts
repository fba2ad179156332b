import { readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '@toolhost/config/files';
import { MAX_REQUEST_STATE_LENGTH, MAX_STATUS_MESSAGE_LENGTH, MAX_TASK_ID_LENGTH } from '@toolhost/connection/tasks';
import { escapeControlText } from '@toolhost/contract';
import type { StoredTask, TaskStore } from '@toolhost/contract/tasks';
import { HostError } from '../../host-error.js';
import type { SettingsSource } from '../../resolve-servers.js';

/** Name of the task file in the application folder (`~/<appDir>/mcp-tasks.json`). */
export const TASK_FILE_NAME = 'mcp-tasks.json';

/** Most tasks a store keeps; past it the oldest are dropped. */
export const MAX_STORED_TASKS = 500;

/**
 * Largest task file {@link FileTaskStore} reads, in bytes (16 MiB): `MAX_STORED_TASKS` (500) tasks
 * with the longest `requestState` a server may send take about 8 MiB.
 */
export const MAX_TASK_FILE_BYTES = 16 * 1024 * 1024;

// The task store contract lives in @toolhost/contract/tasks (a store package implements it without
// depending on host); host keeps exporting it under the same names.
export type { StoredTask, TaskStore };

/** A {@link TaskStore} in memory: tasks are forgotten with the process. */
export class InMemoryTaskStore implements TaskStore {
  #tasks: readonly StoredTask[] = [];

  /** Every stored task. */
  load(): Promise<readonly StoredTask[]> {
    return Promise.resolve(this.#tasks);
  }

  /** Replace the stored tasks. */
  save(tasks: readonly StoredTask[]): Promise<void> {
    this.#tasks = [...tasks];
    return Promise.resolve();
  }
}

/** Options of {@link FileTaskStore}. */
export interface FileTaskStoreOptions {
  /** The file to use; wins over `appDir`. @default `~/<appDir>/mcp-tasks.json` */
  readonly filePath?: string;
  /** The application's folder under the home folder. @default '.toolhost' */
  readonly appDir?: string;
  /** The home folder. @default os.homedir() */
  readonly homeDir?: string;
}

/**
 * A {@link TaskStore} in a JSON file, `~/<appDir>/mcp-tasks.json` by default. Writes are atomic
 * (a temporary file in the same folder, flushed, then renamed over the file) and a new file gets
 * mode 0600. A missing file is an empty list.
 *
 * The file is read as hostile (anyone who can write it may have): a file that is not JSON, is
 * larger than {@link MAX_TASK_FILE_BYTES}, is not `{ "version": 1, "tasks": [...] }`, holds more
 * than `MAX_STORED_TASKS` (500) tasks, or holds an entry that is not a task as the host writes it
 * (a task id of 1 to 256 visible ASCII characters, as servers must send them; names, dates,
 * statuses and lengths checked) makes `load` fail with `STORE_FAILED` naming
 * the file and the problem. Such a file is never overwritten: every write reads the file first,
 * so the host keeps no tasks in it (tool calls still run, and each failed write is a `warning`
 * event) until it is fixed or deleted.
 */
export class FileTaskStore implements TaskStore {
  /** The file this store reads and writes. */
  readonly filePath: string;

  /** Create a store; nothing is read or written until `load`/`save`. */
  constructor(options: FileTaskStoreOptions = {}) {
    this.filePath = options.filePath ?? join(options.homeDir ?? homedir(), options.appDir ?? '.toolhost', TASK_FILE_NAME);
  }

  /** Read the file (an empty list when it does not exist). @throws HostError `STORE_FAILED`. */
  async load(): Promise<readonly StoredTask[]> {
    let text: string;
    try {
      const { size } = await stat(this.filePath);
      if (size > MAX_TASK_FILE_BYTES)
        throw this.#unusable(`is ${size} bytes, larger than the ${MAX_TASK_FILE_BYTES} bytes a task file can be`);
      text = await readFile(this.filePath, 'utf8');
    } catch (error) {
      if (HostError.isInstance(error)) throw error;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw this.#failure('read', error);
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw this.#unusable(
        `is not valid JSON (${escapeControlText(error instanceof Error ? error.message : String(error), { maxLength: 200 })})`,
        error,
      );
    }
    if (
      typeof document !== 'object' ||
      document === null ||
      Array.isArray(document) ||
      !Array.isArray((document as { tasks?: unknown }).tasks)
    ) {
      throw this.#unusable('is not a task file (it should be { "version": 1, "tasks": [...] })');
    }
    const { version, tasks } = document as { version?: unknown; tasks: unknown[] };
    if (version !== 1)
      throw this.#unusable(`has version ${escapeControlText(JSON.stringify(version) ?? 'undefined', { maxLength: 40 })}, not 1`);
    if (tasks.length > MAX_STORED_TASKS)
      throw this.#unusable(`holds ${tasks.length} tasks, more than the ${MAX_STORED_TASKS} a host keeps`);
    tasks.forEach((task, index) => {
      const problem = storedTaskProblem(task);
      if (problem !== undefined) throw this.#unusable(`has an entry that is not a task (tasks[${index}]: ${problem})`);
    });
    return tasks as StoredTask[];
  }

  /** Replace the file atomically (mode 0600 for a new file). @throws HostError `STORE_FAILED`. */
  async save(tasks: readonly StoredTask[]): Promise<void> {
    try {
      await writeFileAtomic(this.filePath, `${JSON.stringify({ version: 1, tasks }, null, 2)}\n`);
    } catch (error) {
      throw this.#failure('write', error);
    }
  }

  /** The file is there but cannot be used as it is: it is left untouched. */
  #unusable(what: string, cause?: unknown): HostError {
    return new HostError({
      code: 'STORE_FAILED',
      ...(cause !== undefined ? { cause } : {}),
      message:
        `The MCP task file ${this.filePath} ${what}. The host leaves it as it is and keeps no tasks in it until it is fixed: ` +
        'correct or remove the entry, or delete the file (the host then forgets the tasks it lists).',
    });
  }

  #failure(action: 'read' | 'write', error: unknown): HostError {
    return new HostError({
      code: 'STORE_FAILED',
      cause: error,
      message: `Could not ${action} the MCP task file ${this.filePath}: ${error instanceof Error ? error.message : String(error)}. Check that the folder exists and is writable by you.`,
    });
  }
}

/**
 * The task store a host uses when none is given: a {@link FileTaskStore} in the application
 * folder when the settings come from files, in memory when they were passed in directly.
 */
export function defaultTaskStore(source: SettingsSource): TaskStore {
  if (source.settings) return new InMemoryTaskStore();
  return new FileTaskStore({
    ...(source.appDir !== undefined ? { appDir: source.appDir } : {}),
    ...(source.homeDir !== undefined ? { homeDir: source.homeDir } : {}),
  });
}

/** Longest name (server, tool, tool call) in a stored task. */
const MAX_STORED_NAME_LENGTH = 1024;

/** C0 and C1 control characters, and the BiDi controls `escapeControlText` escapes. */
// eslint-disable-next-line no-control-regex -- the control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;

const TASK_STATUSES: ReadonlySet<string> = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** Why `value` is not a task as the host writes it, or `undefined` when it is one. */
function storedTaskProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object';
  const task = value as Record<string, unknown>;
  for (const key of ['serverName', 'toolCallId', 'toolName', 'serverToolName']) {
    const field = task[key];
    // Control characters are not refused here: a server may name a tool with them (they are escaped where shown).
    if (typeof field !== 'string' || field === '' || field.length > MAX_STORED_NAME_LENGTH) {
      return `${key} is not a string of 1 to ${MAX_STORED_NAME_LENGTH} characters`;
    }
  }
  const taskId = task['taskId'];
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > MAX_TASK_ID_LENGTH || !/^[\x21-\x7e]+$/.test(taskId)) {
    return `taskId is not a string of 1 to ${MAX_TASK_ID_LENGTH} visible ASCII characters`;
  }
  if (task['protocolVersion'] !== '2025-11-25' && task['protocolVersion'] !== '2026-07-28')
    return 'protocolVersion is not 2025-11-25 or 2026-07-28';
  for (const key of ['createdAt', 'expiresAt']) {
    const date = task[key];
    if ((key === 'createdAt' || date !== undefined) && (typeof date !== 'string' || date.length > 64 || Number.isNaN(Date.parse(date)))) {
      return `${key} is not a date`;
    }
  }
  const state = task['requestState'];
  if (state !== undefined && (typeof state !== 'string' || state.length > MAX_REQUEST_STATE_LENGTH)) {
    return `requestState is not a string of at most ${MAX_REQUEST_STATE_LENGTH} characters`;
  }
  if (task['status'] !== undefined && (typeof task['status'] !== 'string' || !TASK_STATUSES.has(task['status'])))
    return 'status is not a task status';
  const message = task['statusMessage'];
  // A stored message was escaped when it was read from the server: at most 6 characters per original one.
  if (
    message !== undefined &&
    (typeof message !== 'string' || message.length > MAX_STATUS_MESSAGE_LENGTH * 6 + 1 || CONTROL.test(message))
  ) {
    return 'statusMessage is not an escaped status message';
  }
  return undefined;
}
