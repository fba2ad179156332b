import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Message, Part, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import type { HostToolDefinition, ModelToolCall, ToolCall, ToolCallOutcome } from '@toolhost/contract';
import { HostError, type McpToolHost, type ToolCallResult } from '@toolhost/host';
import type { AgentModel } from './agent-model.js';
import { DEVELOPMENT_TOOL_EXTENSION_URI, DevelopmentToolEventKind, toWireToolCall, type AgentThought } from './development-tool.js';

/** A claimed answer to one waiting tool call, applied when the message that carries it runs. */
export interface ClaimedConfirmation {
  /** The tool call. */
  readonly toolCallId: string;
  /** The option chosen. */
  readonly optionId: string;
}

/** What a message asks the agent to do, decided (and validated) before the SDK sees it. */
export type MessagePlan =
  | { readonly kind: 'text'; readonly text: string; readonly workspacePath?: string }
  | { readonly kind: 'command'; readonly line: string; readonly workspacePath?: string }
  | { readonly kind: 'confirm'; readonly confirmations: readonly ClaimedConfirmation[] };

/** The conversation of one A2A context. */
interface ContextState {
  readonly contextId: string;
  readonly history: unknown[];
  /** The task of this context that is not finished, if any. */
  activeTaskId: string | undefined;
  /** When its last task ended (while it has none running). */
  idleSince: number;
}

/** One A2A task while it runs (or waits for a confirmation). */
class TaskRun {
  readonly taskId: string;
  readonly context: ContextState;
  readonly controller = new AbortController();
  bus: ExecutionEventBus;
  /** `working` while the loop runs, `input-required` while a tool call waits for the user. */
  state: 'working' | 'input-required' = 'working';
  /** Set once the final event was published (or the task was cancelled without a live stream). */
  finished = false;
  /** Tool calls of this task waiting for an answer (announced with `input-required`). */
  readonly waiting = new Map<string, ToolCall>();
  /**
   * Set once `input-required` ended the stream: nothing reads the bus until an answer brings a
   * new one, so the final event of a task that ends meanwhile goes to the task store directly.
   */
  detached = false;
  /** Cancels the waiting tool calls when nobody answers in time. */
  confirmationTimer: NodeJS.Timeout | undefined;
  /** Where this task's turn starts in the conversation's history. */
  turnStart: number;

  constructor(taskId: string, context: ContextState, bus: ExecutionEventBus) {
    this.taskId = taskId;
    this.context = context;
    this.bus = bus;
    this.turnStart = context.history.length;
  }
}

/** Options of {@link ToolhostAgentExecutor}. */
export interface ToolhostAgentExecutorOptions<TItem, TTool, TResponse, TToolResults> {
  /** The host (created with `deferConfirmations: true`, discovered). */
  readonly host: McpToolHost<TTool, TResponse, TToolResults>;
  /** The model side of the loop. */
  readonly model: AgentModel<TItem, TTool, TResponse, TToolResults>;
  /** Tool rounds one message may cause. */
  readonly maxToolRounds: number;
  /** How long a task waits for the answer to a confirmation before its waiting calls are cancelled and it ends `canceled`. */
  readonly confirmationTimeoutMs: number;
  /** Conversations without a running task that are kept; the one idle longest is forgotten first. */
  readonly maxIdleContexts: number;
  /** How long a conversation without a running task is kept, in milliseconds. */
  readonly idleContextTtlMs: number;
  /** Told the final event of a task whose stream had ended (`input-required`): the server records it in the task store. */
  readonly onDetachedEnd: (event: TaskStatusUpdateEvent) => void;
  /** Told about unexpected errors (the server never prints). */
  readonly onError?: (error: Error) => void;
}

const TERMINAL_TOOL_STATUSES: ReadonlySet<ToolCall['status']> = new Set(['SUCCEEDED', 'FAILED', 'CANCELLED']);

/**
 * The agent behind the A2A server: one conversation per A2A context, one model loop per task,
 * tool calls through the host (their confirmations wait in `host.confirmations` and end the
 * stream with `input-required`), every step published as a `TaskStatusUpdateEvent` of the
 * development-tool extension.
 */
export class ToolhostAgentExecutor<TItem, TTool, TResponse, TToolResults> implements AgentExecutor {
  readonly #options: ToolhostAgentExecutorOptions<TItem, TTool, TResponse, TToolResults>;
  readonly #contexts = new Map<string, ContextState>();
  readonly #runs = new Map<string, TaskRun>();
  /** Tool call id → the run that made the call. */
  readonly #owners = new Map<string, TaskRun>();
  /** Message id → what it asks (set by the server's validation just before the SDK runs it). */
  readonly #plans = new Map<string, MessagePlan>();
  readonly #unsubscribe: Array<() => void>;

  /** Create the executor; it listens to the host's tool-call events until {@link ToolhostAgentExecutor.close}. */
  constructor(options: ToolhostAgentExecutorOptions<TItem, TTool, TResponse, TToolResults>) {
    this.#options = options;
    const { host } = options;
    this.#unsubscribe = [
      host.on('tool-call-update', (call) => this.#onToolCallUpdate(call)),
      host.on('confirmation-pending', (request) => this.#onConfirmationPending(request.toolCallId)),
    ];
  }

  /** Stop listening to the host and cancel every run: an open stream gets a final `canceled`. */
  close(): void {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    for (const run of [...this.#runs.values()]) {
      clearTimeout(run.confirmationTimer);
      this.#finish(run, 'canceled', [{ kind: 'text', text: 'The agent shut down.' }]);
      this.#stop(run);
    }
    this.#runs.clear();
  }

  /**
   * Tasks that run or wait for a confirmation, plus the new tasks whose message was accepted and
   * is about to start: what `limits.maxLiveTasks` bounds.
   */
  liveTasks(): number {
    let starting = 0;
    for (const plan of this.#plans.values()) if (plan.kind !== 'confirm') starting += 1;
    return this.#runs.size + starting;
  }

  /** Whether a context is known, and the id of its unfinished task. */
  contextInfo(contextId: string): { readonly known: boolean; readonly activeTaskId: string | undefined } {
    const context = this.#contexts.get(contextId);
    return { known: context !== undefined, activeTaskId: context?.activeTaskId };
  }

  /** The run state of a task this executor knows, or undefined. */
  taskState(
    taskId: string,
  ): { readonly state: 'working' | 'input-required'; readonly contextId: string; readonly waiting: readonly ToolCall[] } | undefined {
    const run = this.#runs.get(taskId);
    if (!run || run.finished) return undefined;
    return { state: run.state, contextId: run.context.contextId, waiting: [...run.waiting.values()] };
  }

  /**
   * Take the answer to a waiting tool call of `taskId` for the message `messageId`: from now on
   * the call counts as answered (a second answer is refused), and the answer is applied when
   * that message runs. Returns why it cannot be taken, or undefined when it was.
   */
  claim(taskId: string, confirmations: readonly ClaimedConfirmation[]): string | undefined {
    const run = this.#runs.get(taskId);
    if (!run || run.finished || run.state !== 'input-required') return `task ${taskId} is not waiting for a confirmation`;
    for (const { toolCallId, optionId } of confirmations) {
      const call = run.waiting.get(toolCallId);
      if (!call)
        return `tool call ${JSON.stringify(toolCallId).slice(0, 200)} of task ${taskId} is not waiting for a confirmation (unknown, or already answered)`;
      const options = call.confirmationRequest?.options ?? [];
      if (!options.some((option) => option.id === optionId)) {
        return `${JSON.stringify(optionId).slice(0, 200)} is not one of the options offered for tool call ${toolCallId}: ${options.map((option) => option.id).join(', ')}`;
      }
    }
    for (const { toolCallId } of confirmations) run.waiting.delete(toolCallId);
    // Someone answered: the task no longer waits for nobody.
    clearTimeout(run.confirmationTimer);
    run.confirmationTimer = undefined;
    return undefined;
  }

  /** Record what the message `messageId` asks, decided by the server's validation. */
  plan(messageId: string, plan: MessagePlan): void {
    this.#plans.set(messageId, plan);
  }

  /** Forget a plan whose message was refused before it ran. */
  dropPlan(messageId: string): void {
    this.#plans.delete(messageId);
  }

  /** A task was cancelled while no stream was open (the SDK marked it `canceled` in the store). */
  abandon(taskId: string): void {
    const run = this.#runs.get(taskId);
    if (!run) return;
    clearTimeout(run.confirmationTimer);
    run.finished = true;
    this.#stop(run);
    this.#endRun(run);
  }

  /** Run the message of `requestContext` (the SDK calls this for `message/stream` and `message/send`). */
  async execute(requestContext: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId, userMessage } = requestContext;
    const plan = this.#plans.get(userMessage.messageId) ?? planOf(userMessage);
    this.#plans.delete(userMessage.messageId);
    const existing = this.#runs.get(taskId);
    if (existing && !existing.finished) {
      existing.bus = bus;
      existing.detached = false;
      clearTimeout(existing.confirmationTimer);
      existing.confirmationTimer = undefined;
      existing.state = 'working';
      this.#status(existing, 'working', DevelopmentToolEventKind.StateChange);
      if (plan.kind === 'confirm') {
        for (const { toolCallId, optionId } of plan.confirmations) {
          try {
            this.#options.host.confirmations.answer({ toolCallId, optionId });
          } catch (error) {
            this.#report(error);
          }
        }
      }
      return;
    }
    let context = this.#contexts.get(contextId);
    const newContext = !context;
    if (!context) {
      context = { contextId, history: [], activeTaskId: undefined, idleSince: Date.now() };
      this.#contexts.set(contextId, context);
      this.#pruneContexts();
    }
    const run = new TaskRun(taskId, context, bus);
    this.#runs.set(taskId, run);
    context.activeTaskId = taskId;
    if (!requestContext.task) {
      bus.publish({
        kind: 'task',
        id: taskId,
        contextId,
        status: { state: 'submitted', timestamp: new Date().toISOString() },
        history: [userMessage],
      });
    }
    this.#status(run, 'working', DevelopmentToolEventKind.StateChange);
    if (newContext && plan.kind !== 'confirm' && plan.workspacePath !== undefined) {
      // The first message of a session names the workspace: it becomes the servers' roots.
      const current = this.#options.host.roots.list().map((root) => root.uri);
      const wanted = pathToFileURL(plan.workspacePath).href;
      if (current.length !== 1 || current[0] !== wanted) {
        await this.#options.host.roots.set({ folders: [plan.workspacePath] }).catch((error: unknown) => this.#report(error));
      }
    }
    await this.#runTurn(run, plan);
  }

  /** Cancel a task whose stream is open: stop its loop and publish the final `canceled`. */
  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const run = this.#runs.get(taskId);
    if (!run || run.finished) {
      bus.publish(statusEvent(taskId, run?.context.contextId ?? '', 'canceled', DevelopmentToolEventKind.StateChange, undefined, true));
      return;
    }
    run.bus = bus;
    run.detached = false;
    this.#stop(run);
    this.#finish(run, 'canceled', [{ kind: 'text', text: 'The task was cancelled.' }]);
  }

  async #runTurn(run: TaskRun, plan: MessagePlan): Promise<void> {
    const { host, model } = this.#options;
    const history = run.context.history as TItem[];
    const turnStart = history.length;
    run.turnStart = turnStart;
    try {
      let text: string;
      if (plan.kind === 'command') {
        const result = await host.commands.run({ line: plan.line }, { signal: run.controller.signal });
        if (result.kind === 'text') {
          this.#text(run, result.text);
          this.#finish(run, 'completed');
          return;
        }
        text = result.text;
      } else if (plan.kind === 'text') {
        text = plan.text;
      } else {
        this.#finish(run, 'failed', [{ kind: 'text', text: 'There is no tool call waiting in this task to confirm.' }]);
        return;
      }
      history.push(model.userMessage(text));
      await this.#loop(run, history);
    } catch (error) {
      // A run that was stopped took its turn out of the conversation already (#stop).
      if (run.controller.signal.aborted) return;
      history.splice(turnStart);
      const message = HostError.isInstance(error)
        ? error.message
        : `${model.name} request failed: ${error instanceof Error ? error.message : String(error)}`;
      this.#finish(run, 'failed', [{ kind: 'text', text: message }], message);
    }
  }

  async #loop(run: TaskRun, history: TItem[]): Promise<void> {
    const { host, model, maxToolRounds } = this.#options;
    const signal = run.controller.signal;
    const instructions = host.servers
      .instructions()
      .map((entry) => `Instructions from MCP server ${entry.serverName}:\n${entry.instructions}`)
      .join('\n\n');
    for (let round = 0; round < maxToolRounds; round += 1) {
      const reply = await model.generate({ history, tools: host.listTools(), instructions: instructions || undefined, signal });
      if (signal.aborted) return;
      history.push(...reply.items);
      for (const thought of reply.thoughts ?? []) this.#thought(run, thought);
      if (reply.text) this.#text(run, reply.text);
      const tools = new Map<string, HostToolDefinition>();
      for (const tool of host.listToolDefinitions()) tools.set(tool.name, tool);
      const calls = host.adapter.getToolCalls(reply.response, { tools });
      if (calls.length === 0) {
        this.#finish(run, 'completed');
        return;
      }
      const outcomes: ToolCallOutcome[] = [];
      for (const call of calls) {
        if (signal.aborted) return;
        outcomes.push(await this.#callTool(run, call));
      }
      if (signal.aborted) return;
      history.push(...model.toolResultItems(host.adapter.toToolResults(outcomes)));
    }
    this.#text(run, `(stopped after ${maxToolRounds} rounds of tool calls)`);
    this.#finish(run, 'completed');
  }

  /** One tool call through the host under an id unique to this server; the outcome keeps the model's call. */
  async #callTool(run: TaskRun, call: ModelToolCall): Promise<ToolCallOutcome> {
    const toolCallId = `call-${randomUUID()}`;
    this.#owners.set(toolCallId, run);
    let result: ToolCallResult;
    try {
      result = await this.#options.host.callTool(
        { name: call.name, arguments: call.arguments, toolCallId },
        { signal: run.controller.signal },
      );
    } finally {
      this.#owners.delete(toolCallId);
      run.waiting.delete(toolCallId);
    }
    if (!run.controller.signal.aborted) this.#publishToolCall(run, result.toolCall, result.parts);
    return { ...result, call };
  }

  #onToolCallUpdate(call: ToolCall): void {
    const run = this.#owners.get(call.toolCallId);
    // The final update is published from the call's result, which also has the images.
    if (!run || TERMINAL_TOOL_STATUSES.has(call.status)) return;
    if (call.status === 'PENDING' && call.confirmationRequest) run.waiting.set(call.toolCallId, call);
    this.#publishToolCall(run, call, []);
  }

  #onConfirmationPending(toolCallId: string): void {
    const run = this.#owners.get(toolCallId);
    if (!run || run.finished) return;
    run.state = 'input-required';
    const parts: Part[] = [...run.waiting.values()].map((call) => ({ kind: 'data', data: { ...toWireToolCall(call) } }));
    this.#status(run, 'input-required', DevelopmentToolEventKind.StateChange, parts, true);
    run.detached = true;
    clearTimeout(run.confirmationTimer);
    run.confirmationTimer = setTimeout(() => this.#expire(run), this.#options.confirmationTimeoutMs);
    // A waiting task must not keep the process alive.
    run.confirmationTimer.unref();
  }

  /**
   * Nobody answered the confirmation in time (the client left, or never will): cancel the waiting
   * calls (aborting the run settles the host's pending confirmations) and end the task
   * `canceled`, saying why, with each cancelled call.
   */
  #expire(run: TaskRun): void {
    run.confirmationTimer = undefined;
    if (run.finished || run.state !== 'input-required') return;
    const after = formatDuration(this.#options.confirmationTimeoutMs);
    const calls = [...run.waiting.values()];
    const message = `Nobody answered the confirmation of ${calls.map((call) => `tool call ${call.toolCallId} (${call.toolName})`).join(', ') || 'the waiting tool call'} within ${after} (limits.confirmationTimeoutMs): the call was cancelled without running, and the task ended. Send the request again to retry.`;
    const parts: Part[] = [
      { kind: 'text', text: message },
      ...calls.map(({ confirmationRequest: _asked, ...call }): Part => ({
        kind: 'data',
        data: {
          ...toWireToolCall({
            ...call,
            status: 'CANCELLED',
            error: { type: 'CANCELLED', message: `Nobody answered within ${after}: the call was cancelled without running.` },
          }),
        },
      })),
    ];
    this.#stop(run);
    this.#finish(run, 'canceled', parts, message);
  }

  /**
   * Stop the run's loop (a waiting confirmation of the host settles as cancelled) and take its
   * unfinished turn out of the conversation, so that no tool call without its result stays in the
   * history the model gets next. The run is still its context's active task here, so the turn is
   * the end of the history; once aborted, the loop adds nothing more.
   */
  #stop(run: TaskRun): void {
    if (run.controller.signal.aborted) return;
    run.controller.abort();
    run.context.history.splice(run.turnStart);
  }

  #publishToolCall(run: TaskRun, call: ToolCall, resultParts: ToolCallResult['parts']): void {
    const kind =
      call.status === 'PENDING' && call.confirmationRequest
        ? DevelopmentToolEventKind.ToolCallConfirmation
        : DevelopmentToolEventKind.ToolCallUpdate;
    const parts: Part[] = [{ kind: 'data', data: { ...toWireToolCall(call) } }];
    if (call.status === 'SUCCEEDED') {
      let index = 0;
      for (const part of resultParts) {
        if (part.type !== 'inlineData') continue;
        index += 1;
        parts.push({
          kind: 'file',
          file: { bytes: part.data, mimeType: part.mimeType, name: `${call.toolName}-${index}` },
          metadata: { [DEVELOPMENT_TOOL_EXTENSION_URI]: { tool_call_id: call.toolCallId } },
        });
      }
    }
    this.#status(run, 'working', kind, parts);
  }

  #text(run: TaskRun, text: string): void {
    this.#status(run, 'working', DevelopmentToolEventKind.TextContent, [{ kind: 'text', text }]);
  }

  #thought(run: TaskRun, thought: AgentThought): void {
    this.#status(run, 'working', DevelopmentToolEventKind.Thought, [
      { kind: 'data', data: { subject: thought.subject, description: thought.description } },
    ]);
  }

  #finish(run: TaskRun, state: 'completed' | 'failed' | 'canceled', parts?: Part[], error?: string): void {
    if (run.finished) return;
    this.#status(run, state, DevelopmentToolEventKind.StateChange, parts, true, error);
    run.finished = true;
    this.#endRun(run);
  }

  #endRun(run: TaskRun): void {
    clearTimeout(run.confirmationTimer);
    this.#runs.delete(run.taskId);
    const context = run.context;
    if (context.activeTaskId === run.taskId) {
      context.activeTaskId = undefined;
      context.idleSince = Date.now();
      // Idle conversations are kept in the order they went idle, for #pruneContexts.
      this.#contexts.delete(context.contextId);
      this.#contexts.set(context.contextId, context);
      this.#pruneContexts();
    }
  }

  /** Forget the conversations idle for too long, and the oldest idle ones over the cap. */
  #pruneContexts(): void {
    const oldestKept = Date.now() - this.#options.idleContextTtlMs;
    let idle = 0;
    for (const context of this.#contexts.values()) if (context.activeTaskId === undefined) idle += 1;
    for (const [contextId, context] of this.#contexts) {
      if (context.activeTaskId !== undefined) continue;
      if (idle <= this.#options.maxIdleContexts && context.idleSince > oldestKept) break;
      this.#contexts.delete(contextId);
      idle -= 1;
    }
  }

  #status(run: TaskRun, state: TaskState, kind: DevelopmentToolEventKind, parts?: Part[], final = false, error?: string): void {
    if (run.finished) return;
    const event = statusEvent(run.taskId, run.context.contextId, state, kind, parts, final, this.#options.model.model, error);
    if (!run.detached) run.bus.publish(event);
    else if (final) this.#options.onDetachedEnd(event);
  }

  #report(error: unknown): void {
    this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
}

/** A `TaskStatusUpdateEvent` of the development-tool extension. */
function statusEvent(
  taskId: string,
  contextId: string,
  state: TaskState,
  kind: DevelopmentToolEventKind,
  parts: Part[] | undefined,
  final: boolean,
  model?: string,
  error?: string,
): TaskStatusUpdateEvent {
  const message: Message | undefined =
    parts && parts.length > 0 ? { kind: 'message', role: 'agent', messageId: randomUUID(), parts, taskId, contextId } : undefined;
  return {
    kind: 'status-update',
    taskId,
    contextId,
    final,
    status: { state, timestamp: new Date().toISOString(), ...(message ? { message } : {}) },
    metadata: {
      kind,
      [DEVELOPMENT_TOOL_EXTENSION_URI]: { kind, ...(model ? { model } : {}), ...(error ? { error } : {}) },
    },
  };
}

/** `30 minutes`, `90 seconds`, `1500 ms`: a limit in words. */
export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return ms === 60_000 ? '1 minute' : `${ms / 60_000} minutes`;
  if (ms >= 1000 && ms % 1000 === 0) return ms === 1000 ? '1 second' : `${ms / 1000} seconds`;
  return `${ms} ms`;
}

/** What a message asks when the server's validation recorded no plan for it: its text, to the model. */
function planOf(message: Message): MessagePlan {
  const text = message.parts.flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('\n');
  return { kind: 'text', text };
}
