import type { ConnectionClient } from '@toolhost/connection';
import type { UiHooks } from '@toolhost/contract';
import type { ConfirmationPolicy, ToolArgumentValidator } from '@toolhost/confirmation';
import type { HostEventEmitter } from '../host-events.js';
import type { ResultMappingOptions } from './map-tool-result.js';
import type { CallableTool } from './callable-tool.js';
import type { PendingConfirmations } from './pending-confirmations.js';
import type { ToolCallInterceptor } from './call-hooks.js';
import type { ToolTaskRuntime } from './tasks/tool-call-task.js';

/** What the tool-call stages need from the host; built once per host. */
export interface ToolCallRuntime {
  /** The registered tool under the name the model used. */
  findTool(name: string): CallableTool | undefined;
  /** Every registered name (for the not-found message). */
  toolNames(): readonly string[];
  /** For a `server__tool` name whose server is configured but not connected: that server and its status. */
  unavailableServerOf?(name: string): { readonly serverName: string; readonly status: string } | undefined;
  /** Argument validation, compiled once per input schema. */
  readonly validator: ToolArgumentValidator;
  /** The one place that decides whether a call may run. */
  readonly policy: ConfirmationPolicy;
  /** The UI hooks (`confirm`, `elicit`), read on every call. */
  readonly ui: UiHooks;
  /** The confirmations waiting for an answer (from the `confirm` hook or `host.confirmations.answer()`). */
  readonly confirmations: PendingConfirmations;
  /** Whether a confirmation without a `confirm` hook waits for `host.confirmations.answer()` (else it is refused). */
  readonly deferConfirmations: boolean;
  /** The host's events. */
  readonly events: HostEventEmitter;
  /** The connected client of a server. */
  getClient(serverName: string): ConnectionClient | undefined;
  /** True when a connection pool closed the server while idle: {@link ToolCallRuntime.resume} connects it again. */
  isParked?(serverName: string): boolean;
  /** Connect a server the connection pool closed while idle again. @throws HostError when it cannot. */
  resume?(serverName: string): Promise<void>;
  /** Run a request to a remote server with OAuth step-up around it. */
  withStepUp<T>(options: {
    readonly serverName: string;
    readonly what: string;
    readonly run: () => Promise<T>;
    readonly signal: AbortSignal | undefined;
  }): Promise<T>;
  /** How results are mapped for the model. */
  readonly resultMapping: ResultMappingOptions;
  /** Overall cap of one call, in milliseconds. */
  readonly maxTotalTimeoutMs: number;
  /** Shortest interval between two progress reports of one call, in milliseconds. @default 100 */
  readonly progressIntervalMs?: number;
  /** The host's tool-call interceptors, in order (none when empty). */
  readonly interceptors?: readonly ToolCallInterceptor[];
  /** Tasks (the `tasks` host option): long calls the server runs as tasks are polled. Absent: tasks are off. */
  readonly tasks?: ToolTaskRuntime;
  /** A fresh tool-call id, for calls the model gave none. */
  newToolCallId(): string;
}
