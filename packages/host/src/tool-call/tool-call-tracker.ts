import type { ConfirmationRequest, ToolCall, ToolCallError, ToolCallOutput, ToolCallProgress, ToolCallStatus } from '@toolhost/contract';
import type { ToolCallTask } from '@toolhost/contract/tasks';
import type { HostEventEmitter } from '../host-events.js';
import type { CallableTool } from './callable-tool.js';

function progressText(progress: ToolCallProgress): string {
  const amount = progress.total !== undefined ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
  return progress.message ? `${amount} ${progress.message}` : amount;
}

/** Default shortest interval between two progress reports of one tool call, in milliseconds. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 100;

/**
 * The lifecycle of one tool call. It reports each step as a `tool-call-update` event carrying
 * the whole {@link ToolCall}, and builds that snapshot only when someone listens. Progress is
 * coalesced: at most one `tool-call-progress` (and progress `tool-call-update`) per
 * `progressIntervalMs`, the latest value winning; the last value is always delivered, at the
 * latest just before the final update.
 */
export class ToolCallTracker {
  readonly #events: HostEventEmitter;
  readonly #toolCallId: string;
  readonly #toolName: string;
  readonly #inputParameters: Readonly<Record<string, unknown>>;
  #status: ToolCallStatus = 'PENDING';
  #tool: CallableTool | undefined;
  #confirmationRequest: ConfirmationRequest | undefined;
  #progress: ToolCallProgress | undefined;
  #output: ToolCallOutput | undefined;
  #error: ToolCallError | undefined;
  #task: ToolCallTask | undefined;
  readonly #progressIntervalMs: number;
  /** When progress was last reported (0: never). */
  #progressReportedAt = 0;
  /** Progress received and not reported yet. */
  #progressPending = false;
  #progressTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    events: HostEventEmitter,
    toolCallId: string,
    toolName: string,
    inputParameters: Readonly<Record<string, unknown>>,
    progressIntervalMs: number = DEFAULT_PROGRESS_INTERVAL_MS,
  ) {
    this.#progressIntervalMs = progressIntervalMs;
    this.#events = events;
    this.#toolCallId = toolCallId;
    this.#toolName = toolName;
    this.#inputParameters = inputParameters;
  }

  /** The call's id. */
  get toolCallId(): string {
    return this.#toolCallId;
  }

  /** Whether anyone consumes progress (so the server is asked for it). */
  get observesProgress(): boolean {
    return this.#events.has('tool-call-progress') || this.#events.has('tool-call-update');
  }

  /** The tool was found. */
  found(tool: CallableTool): void {
    this.#tool = tool;
  }

  /** `PENDING`, with the confirmation request when the user must decide. */
  pending(confirmationRequest?: ConfirmationRequest): void {
    this.#confirmationRequest = confirmationRequest;
    this.#emit();
  }

  /** `EXECUTING`: the request went to the server. */
  executing(): void {
    this.#status = 'EXECUTING';
    this.#confirmationRequest = undefined;
    this.#emit();
  }

  /**
   * The call runs as a server-side task (MCP tasks): `EXECUTING` with the task's status and
   * message. An update is emitted only when the status or the message changed.
   */
  task(task: ToolCallTask): void {
    const previous = this.#task;
    this.#task = task;
    if (previous?.taskId === task.taskId && previous.status === task.status && previous.statusMessage === task.statusMessage) return;
    this.#status = 'EXECUTING';
    this.#confirmationRequest = undefined;
    this.#emit();
  }

  /** A progress notification of the running call (reported at most once per interval, latest wins). */
  progress(progress: ToolCallProgress): void {
    this.#progress = progress;
    this.#progressPending = true;
    if (this.#progressTimer !== undefined) return;
    const wait = this.#progressReportedAt + this.#progressIntervalMs - Date.now();
    if (wait <= 0) {
      this.#reportProgress();
      return;
    }
    this.#progressTimer = setTimeout(() => {
      this.#progressTimer = undefined;
      this.#reportProgress();
    }, wait);
    this.#progressTimer.unref?.();
  }

  #reportProgress(): void {
    const progress = this.#progress;
    if (!this.#progressPending || !progress) return;
    this.#progressPending = false;
    this.#progressReportedAt = Date.now();
    const definition = this.#tool?.definition;
    if (definition && this.#events.has('tool-call-progress')) {
      this.#events.emit('tool-call-progress', {
        toolCallId: this.#toolCallId,
        serverName: definition.serverName,
        toolName: definition.name,
        ...progress,
      });
    }
    this.#emit();
  }

  /** The final state; returns the final {@link ToolCall}. */
  finish(
    status: 'SUCCEEDED' | 'FAILED' | 'CANCELLED',
    result: { readonly output?: ToolCallOutput; readonly error?: ToolCallError },
  ): ToolCall {
    // The last progress value is always delivered, before the final state.
    clearTimeout(this.#progressTimer);
    this.#progressTimer = undefined;
    this.#reportProgress();
    this.#status = status;
    this.#confirmationRequest = undefined;
    this.#progress = undefined;
    this.#output = result.output;
    this.#error = result.error;
    const snapshot = this.snapshot();
    if (this.#events.has('tool-call-update')) this.#events.emit('tool-call-update', snapshot);
    return snapshot;
  }

  /** The call as it is now (built by assignment: this runs on every call, spreads cost more). */
  snapshot(): ToolCall {
    const call: Mutable<ToolCall> = {
      toolCallId: this.#toolCallId,
      status: this.#status,
      toolName: this.#toolName,
      inputParameters: this.#inputParameters,
    };
    const definition = this.#tool?.definition;
    if (definition) {
      call.serverName = definition.serverName;
      call.serverToolName = definition.originalName;
      call.description = `${definition.serverName} › ${definition.originalName}`;
    }
    if (this.#progress) {
      call.progress = this.#progress;
      call.liveContent = progressText(this.#progress);
    }
    if (this.#task) {
      call.task = this.#task;
      if (!this.#progress && this.#status === 'EXECUTING') call.liveContent = this.#task.statusMessage ?? `task ${this.#task.status}`;
    }
    if (this.#output) call.output = this.#output;
    if (this.#error) call.error = this.#error;
    if (this.#confirmationRequest) call.confirmationRequest = this.#confirmationRequest;
    return call;
  }

  #emit(): void {
    if (this.#events.has('tool-call-update')) this.#events.emit('tool-call-update', this.snapshot());
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
