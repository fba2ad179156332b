import type { CallToolResult, ConnectionClient } from '@toolhost/connection';
import { isTaskShapeError, parseTask, type TaskHandle, type TaskRevision, type TaskState } from '@toolhost/connection/tasks';
import { HostError } from '../../host-error.js';
import type { CallableTool } from '../callable-tool.js';
import type { ToolCallTracker } from '../tool-call-tracker.js';
import { runTask, type TaskOutcome } from './run-task.js';
import type { TaskRegistry } from './task-registry.js';
import type { StoredTask } from './task-store.js';

/** What running a tool call as a task needs from the host. */
export interface ToolTaskRuntime {
  /** The outstanding tasks and the task settings. */
  readonly registry: TaskRegistry;
  /** A server's current client. */
  getClient(serverName: string): ConnectionClient | undefined;
}

const REVISION_VERSION: Readonly<Record<TaskRevision, StoredTask['protocolVersion']>> = { legacy: '2025-11-25', modern: '2026-07-28' };

interface ToolExecution {
  readonly taskSupport?: unknown;
}

function taskSupportOf(tool: CallableTool): unknown {
  return (tool.listed as { execution?: ToolExecution }).execution?.taskSupport;
}

function serverRunsToolCallTasks(client: ConnectionClient): boolean {
  const tasks = (client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined)?.tasks;
  return typeof tasks?.requests?.tools?.call === 'object' && tasks.requests.tools.call !== null;
}

/**
 * On 2025-11-25, the `task` parameter to add to a `tools/call` (the requestor decides there):
 * for a tool whose `execution.taskSupport` is `required` (or `optional`, with
 * `tasks.optionalTools`), on a server that declares `tasks.requests.tools.call`. A tool that
 * requires tasks on a host without the `tasks` option gives `TASK_REQUIRED`. On 2026-07-28 the
 * server decides (the host only declares the Tasks extension): nothing to add.
 */
export function taskParameterFor(
  tool: CallableTool,
  client: ConnectionClient,
  registry: TaskRegistry | undefined,
): { readonly ttl: number } | HostError | undefined {
  if (client.getProtocolEra() === 'modern') return undefined;
  const support = taskSupportOf(tool);
  if (support !== 'required' && support !== 'optional') return undefined;
  if (!serverRunsToolCallTasks(client)) return undefined;
  if (!registry) {
    if (support !== 'required') return undefined;
    const { name, serverName } = tool.definition;
    return new HostError({
      code: 'TASK_REQUIRED',
      serverName,
      toolName: name,
      message: `Tool "${name}" of MCP server "${serverName}" can only run as a task (execution.taskSupport "required"), and this host does not use tasks; create the host with the tasks option (tasks: true) to call it.`,
    });
  }
  if (support === 'optional' && !registry.options.optionalTools) return undefined;
  return { ttl: registry.options.ttlMs ?? registry.options.timeoutMs ?? tool.timeoutMs };
}

/**
 * The server answered a tool call with a task: keep it as outstanding, show the call as
 * `EXECUTING` with the task's status, wait for the task and return its result (or the error).
 */
export async function waitForToolTask(
  runtime: ToolTaskRuntime,
  params: {
    readonly tool: CallableTool;
    readonly tracker: ToolCallTracker;
    readonly handle: TaskHandle;
    readonly signal: AbortSignal | undefined;
  },
): Promise<CallToolResult | HostError> {
  const { tool, tracker, handle } = params;
  const { name, serverName, originalName } = tool.definition;
  let initial: TaskState;
  try {
    initial = parseTask(handle.task, handle.revision);
  } catch (error) {
    return new HostError({
      code: 'INVALID_RESPONSE',
      serverName,
      toolName: name,
      cause: error,
      message: `Tool "${name}" of MCP server "${serverName}" answered with a task the host cannot use: ${isTaskShapeError(error) ? error.message : String(error)}.`,
    });
  }
  const createdAt = new Date();
  await runtime.registry.put({
    serverName,
    taskId: initial.taskId,
    toolCallId: tracker.toolCallId,
    toolName: name,
    serverToolName: originalName,
    protocolVersion: REVISION_VERSION[handle.revision],
    createdAt: createdAt.toISOString(),
    ...(typeof initial.ttlMs === 'number' ? { expiresAt: new Date(createdAt.getTime() + initial.ttlMs).toISOString() } : {}),
    ...(initial.requestState !== undefined ? { requestState: initial.requestState } : {}),
    status: initial.status,
    ...(initial.statusMessage !== undefined ? { statusMessage: initial.statusMessage } : {}),
  });
  return settle(runtime, { tool, tracker, signal: params.signal, revision: handle.revision, initial, pollFirst: false });
}

/** Wait again for a stored task (after a restart): poll first, then as for a new one. */
export function resumeToolTask(
  runtime: ToolTaskRuntime,
  params: {
    readonly tool: CallableTool;
    readonly tracker: ToolCallTracker;
    readonly stored: StoredTask;
    readonly signal: AbortSignal | undefined;
  },
): Promise<CallToolResult | HostError> {
  const { stored } = params;
  const initial: TaskState = {
    taskId: stored.taskId,
    status: 'working',
    ...(stored.statusMessage !== undefined ? { statusMessage: stored.statusMessage } : {}),
    ...(stored.requestState !== undefined ? { requestState: stored.requestState } : {}),
  };
  const revision: TaskRevision = stored.protocolVersion === '2026-07-28' ? 'modern' : 'legacy';
  return settle(runtime, { tool: params.tool, tracker: params.tracker, signal: params.signal, revision, initial, pollFirst: true });
}

async function settle(
  runtime: ToolTaskRuntime,
  params: {
    readonly tool: CallableTool;
    readonly tracker: ToolCallTracker;
    readonly signal: AbortSignal | undefined;
    readonly revision: TaskRevision;
    readonly initial: TaskState;
    readonly pollFirst: boolean;
  },
): Promise<CallToolResult | HostError> {
  const { tool, tracker, initial } = params;
  const { registry } = runtime;
  const { name, serverName } = tool.definition;
  let last: TaskState | undefined;
  // Aborted by the caller's signal or by host.tasks.cancel().
  const stop = new AbortController();
  const onAbort = (): void => stop.abort();
  if (params.signal?.aborted) stop.abort();
  else params.signal?.addEventListener('abort', onAbort, { once: true });
  const wait: Promise<TaskOutcome> = runTask(
    {
      serverName,
      toolName: name,
      revision: params.revision,
      timeoutMs: registry.options.timeoutMs ?? tool.timeoutMs,
      requestTimeoutMs: tool.timeoutMs,
      poll: registry.options,
      signal: stop.signal,
      closing: registry.closing,
      pollFirst: params.pollFirst,
      getClient: () => runtime.getClient(serverName),
      onState: (state) => {
        tracker.task({
          taskId: state.taskId,
          status: state.status,
          ...(state.statusMessage !== undefined ? { statusMessage: state.statusMessage } : {}),
        });
        const changed =
          last !== undefined &&
          (last.status !== state.status || last.statusMessage !== state.statusMessage || last.requestState !== state.requestState);
        last = state;
        if (changed) {
          void registry.update(serverName, state.taskId, {
            status: state.status,
            ...(state.statusMessage !== undefined ? { statusMessage: state.statusMessage } : {}),
            ...(state.requestState !== undefined ? { requestState: state.requestState } : {}),
          });
        }
      },
    },
    initial,
  );
  registry.track(serverName, initial.taskId, wait, stop);
  const outcome = await wait;
  params.signal?.removeEventListener('abort', onAbort);
  if (outcome.kind === 'result' || !outcome.keep) await registry.remove(serverName, initial.taskId);
  return outcome.kind === 'result' ? outcome.result : outcome.error;
}
