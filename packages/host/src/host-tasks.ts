import type { CallToolResult, Tool } from '@toolhost/connection';
import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import type { ModelToolCall } from '@toolhost/contract';
import type { HostCore } from './host-core.js';
import { HostError } from './host-error.js';
import type { RequestOptions } from './request-options.js';
import type { TaskRegistry } from './tool-call/tasks/task-registry.js';
import type { StoredTask } from './tool-call/tasks/task-store.js';
import { resumeToolTask } from './tool-call/tasks/tool-call-task.js';
import { cancelTask } from '@toolhost/connection/tasks';
import { toCallableTool, type CallableTool } from './tool-call/callable-tool.js';
import { mapToolResult } from './tool-call/map-tool-result.js';
import { failed, finished, type ToolCallResult } from './tool-call/run-tool-call.js';
import { failure } from './tool-call/tool-call-failure.js';
import type { ToolCallRuntime } from './tool-call/tool-call-runtime.js';
import { ToolCallTracker } from './tool-call/tool-call-tracker.js';

/** A task the host waits for, or can resume (`host.tasks.list()`): a stored task, and whether this host polls it now. */
export interface OutstandingTask extends StoredTask {
  /** True while this host polls the task (a call in progress, or a resume). */
  readonly running: boolean;
}

/** Which task: the server that runs it and its id. */
export interface TaskRef {
  /** The server running the task. */
  readonly serverName: string;
  /** The server's task id. */
  readonly taskId: string;
}

/**
 * The tasks of long tool calls (MCP tasks, with the `tasks` host option): list the outstanding
 * ones (this host's and those an earlier host left running, from the task store), wait for one
 * again after a restart, or cancel one.
 */
export class HostTasks {
  readonly #core: HostCore;
  readonly #registry: TaskRegistry | undefined;
  readonly #runtime: () => ToolCallRuntime;

  /** Internal: `McpToolHost` builds it. */
  constructor(core: HostCore, registry: TaskRegistry | undefined, runtime: () => ToolCallRuntime) {
    this.#core = core;
    this.#registry = registry;
    this.#runtime = runtime;
  }

  /** Whether the host uses tasks (the `tasks` option). */
  get enabled(): boolean {
    return this.#registry !== undefined;
  }

  /**
   * The outstanding tasks, oldest first: started by this host or left running by an earlier one
   * (from the task store). Expired ones (past the time to live the server gave) are dropped.
   * Without the `tasks` option: none.
   *
   * @throws HostError `STORE_FAILED` when the task store cannot be read; `CLOSED` after `close()`.
   */
  async list(): Promise<OutstandingTask[]> {
    this.#core.assertOpen();
    const registry = this.#registry;
    if (!registry) return [];
    const tasks = await registry.list();
    return tasks.map((task) => ({ ...task, running: registry.running(task.serverName, task.taskId) !== undefined }));
  }

  /**
   * Wait for an outstanding task again (typically one an earlier host left running when it
   * closed) and return its result like `callTool`: the call (same tool call id) is reported as
   * `EXECUTING` with the task's status, then `SUCCEEDED`, `FAILED` or `CANCELLED`. The server must
   * be connected (`discover()` first). A task this host already polls is joined. Aborting
   * `signal` cancels the task on the server. Never throws for a task that fails: the result says
   * what happened. Interceptors do not run for a resumed call.
   *
   * @throws HostError `TASK_NOT_FOUND` when no such task is outstanding; `SERVER_NOT_FOUND`,
   * `SERVER_NOT_CONNECTED`; `INVALID_OPTIONS` without the `tasks` option; `STORE_FAILED`; `CLOSED`.
   */
  async resume(params: TaskRef, options: RequestOptions = {}): Promise<ToolCallResult> {
    const { registry, stored } = await this.#find(params);
    this.#core.requireClient(params.serverName, `resume task ${params.taskId}`);
    const runtime = this.#runtime();
    const tool = this.#callableTool(stored);
    const tracker = new ToolCallTracker(this.#core.events, stored.toolCallId, stored.toolName, {}, runtime.progressIntervalMs);
    tracker.found(tool);
    tracker.executing();
    const call: ModelToolCall = { id: stored.toolCallId, name: stored.toolName, arguments: {} };
    const running = registry.running(params.serverName, params.taskId);
    let result: CallToolResult | HostError;
    if (running) {
      const outcome = await running;
      result = outcome.kind === 'result' ? outcome.result : outcome.error;
    } else {
      result = await resumeToolTask(
        { registry, getClient: (serverName) => this.#core.manager.getClient(serverName) },
        { tool, tracker, stored, signal: options.signal },
      );
    }
    if (HostError.isInstance(result)) return failed(tracker, call, failure(result));
    return finished(tracker, call, tool, mapToolResult(result, tool.definition, runtime.resultMapping));
  }

  /**
   * Cancel an outstanding task: a call of this host waiting for it ends `CANCELLED`; the server
   * is sent `tasks/cancel` (when connected; cancellation is cooperative, the server may finish
   * anyway) and the task is forgotten.
   *
   * @throws HostError `TASK_NOT_FOUND`, `INVALID_OPTIONS` without the `tasks` option, `STORE_FAILED`, `CLOSED`.
   */
  async cancel(params: TaskRef, options: RequestOptions = {}): Promise<void> {
    const { registry, stored } = await this.#find(params);
    const running = registry.cancelRunning(params.serverName, params.taskId);
    if (running) {
      await running;
      return;
    }
    const client = this.#core.manager.getClient(params.serverName);
    if (client) {
      const server = this.#core.serversByName.get(params.serverName);
      await cancelTask(
        client,
        { taskId: stored.taskId, requestState: stored.requestState },
        stored.protocolVersion === '2026-07-28' ? 'modern' : 'legacy',
        { timeout: server?.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS, ...(options.signal ? { signal: options.signal } : {}) },
      ).catch(() => undefined);
    }
    await registry.remove(params.serverName, params.taskId);
  }

  async #find(params: TaskRef): Promise<{ registry: TaskRegistry; stored: StoredTask }> {
    this.#core.assertOpen();
    const registry = this.#registry;
    if (!registry) {
      throw new HostError({
        code: 'INVALID_OPTIONS',
        message: 'This host does not use tasks; create it with the tasks option (tasks: true) to list, resume or cancel tasks.',
      });
    }
    const stored = (await registry.list()).find((task) => task.serverName === params.serverName && task.taskId === params.taskId);
    if (!stored) {
      throw new HostError({
        code: 'TASK_NOT_FOUND',
        serverName: params.serverName,
        message: `No outstanding task ${JSON.stringify(params.taskId)} of MCP server "${params.serverName}" is kept by this host: it finished, expired, or was not started here. host.tasks.list() shows the outstanding ones.`,
      });
    }
    return { registry, stored };
  }

  /** The registered tool the task runs, or a stand-in with the stored names when the server no longer lists it. */
  #callableTool(stored: StoredTask): CallableTool {
    const entry = this.#core.manager.tools
      .list()
      .find((tool) => tool.serverName === stored.serverName && tool.originalName === stored.serverToolName);
    const callable = entry ? toCallableTool(entry, this.#core.serversByName) : undefined;
    if (callable) return callable;
    const server = this.#core.serversByName.get(stored.serverName);
    const listed: Tool = { name: stored.serverToolName, inputSchema: { type: 'object' } };
    return {
      definition: {
        name: stored.toolName,
        serverName: stored.serverName,
        originalName: stored.serverToolName,
        description: '',
        inputSchema: { type: 'object' },
      },
      listed,
      callDefinition: listed,
      timeoutMs: server?.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS,
      trust: false,
      serverIdentity: server ? `${server.transport.transport}:${server.transport.target}` : '',
      remote: server?.transport.transport !== 'stdio',
      transportKind: server?.transport.transport ?? 'stdio',
    };
  }
}
