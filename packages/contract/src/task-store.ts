// The task store contract: what a host keeps about the tasks it waits for, and where it keeps them.
// Pure types, on the `@toolhost/contract/tasks` entry, so that a store package (for example
// @toolhost/stores) implements it without depending on @toolhost/host.

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
 * list; the host serialises its own calls. `@toolhost/host` uses a `FileTaskStore` in the
 * application folder when the settings come from files, else an `InMemoryTaskStore`.
 */
export interface TaskStore {
  /** Every stored task. */
  load(): Promise<readonly StoredTask[]>;
  /** Replace the stored tasks. */
  save(tasks: readonly StoredTask[]): Promise<void>;
}
