import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '@toolhost/config';
import { HostError } from '../host-error.js';
import type { SettingsSource } from '../resolve-servers.js';

/** Name of the task file in the application folder (`~/<appDir>/mcp-tasks.json`). */
export const TASK_FILE_NAME = 'mcp-tasks.json';

/** Most tasks a store keeps; past it the oldest are dropped. */
export const MAX_STORED_TASKS = 500;

/**
 * A task a server runs for a tool call, as the host keeps it so that a later host (after a
 * restart) can find it again: which server, which task, which tool call. The tool call's
 * arguments are not kept.
 */
export interface StoredTask {
  /** The server running the task. */
  readonly serverName: string;
  /** The server's task id. */
  readonly taskId: string;
  /** The tool call the task answers. */
  readonly toolCallId: string;
  /** The tool name the model used. */
  readonly toolName: string;
  /** The tool's own name on its server. */
  readonly serverToolName: string;
  /** The MCP revision whose task methods the server uses. */
  readonly protocolVersion: '2025-11-25' | '2026-07-28';
  /** When the host created the task (ISO 8601). */
  readonly createdAt: string;
  /** When the server may forget the task (creation plus its time to live; ISO 8601); absent when unlimited or unknown. */
  readonly expiresAt?: string;
  /** The latest opaque `requestState` the server sent (2026-07-28), sent back when polling resumes. */
  readonly requestState?: string;
  /** The task's status as last seen. */
  readonly status?: string;
  /** The task's status message as last seen (escaped, cut). */
  readonly statusMessage?: string;
}

/**
 * Where the host keeps the tasks it is waiting for. `load` and `save` read and replace the whole
 * list; the host serialises its own calls. The default is a {@link FileTaskStore} in the
 * application folder when the settings come from files, else an {@link InMemoryTaskStore}.
 */
export interface TaskStore {
  /** Every stored task. */
  load(): Promise<readonly StoredTask[]>;
  /** Replace the stored tasks. */
  save(tasks: readonly StoredTask[]): Promise<void>;
}

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
 * mode 0600. A missing file is an empty list; entries that are not tasks are skipped; a file that
 * is not JSON is an error (`STORE_FAILED`) naming the file.
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
      text = await readFile(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw this.#failure('read', error);
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new HostError({
        code: 'STORE_FAILED',
        cause: error,
        message: `The MCP task file ${this.filePath} is not valid JSON (${error instanceof Error ? error.message : String(error)}). Fix it or delete it; the host then forgets the tasks it was waiting for.`,
      });
    }
    const tasks = (document as { tasks?: unknown } | null)?.tasks;
    return Array.isArray(tasks) ? tasks.filter(isStoredTask) : [];
  }

  /** Replace the file atomically (mode 0600 for a new file). @throws HostError `STORE_FAILED`. */
  async save(tasks: readonly StoredTask[]): Promise<void> {
    try {
      await writeFileAtomic(this.filePath, `${JSON.stringify({ version: 1, tasks }, null, 2)}\n`);
    } catch (error) {
      throw this.#failure('write', error);
    }
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

const OPTIONAL_STRINGS = ['expiresAt', 'requestState', 'status', 'statusMessage'] as const;

function isStoredTask(value: unknown): value is StoredTask {
  if (typeof value !== 'object' || value === null) return false;
  const task = value as Record<string, unknown>;
  for (const key of ['serverName', 'taskId', 'toolCallId', 'toolName', 'serverToolName', 'createdAt']) {
    if (typeof task[key] !== 'string' || task[key] === '') return false;
  }
  if (task['protocolVersion'] !== '2025-11-25' && task['protocolVersion'] !== '2026-07-28') return false;
  return OPTIONAL_STRINGS.every((key) => task[key] === undefined || typeof task[key] === 'string');
}
