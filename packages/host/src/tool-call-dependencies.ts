import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerManager } from '@toolhost/discovery';
import { findRegisteredTool } from './find-registered-tool.js';
import type { HostEventEmitter } from './host-events.js';
import { mapToolResult, type ResultMappingOptions } from './map-tool-result.js';
import type { ResolvedServer } from './resolve-servers.js';
import type { RunToolCallDependencies } from './run-tool-call.js';
import type { ToolPolicy } from './tool-policy.js';
import type { UiHooks } from './ui-hooks.js';

/** Options of {@link createToolCallDependencies}. */
export interface ToolCallDependenciesOptions {
  /** The discovery layer (registry and calls). */
  readonly manager: McpServerManager;
  /** Every configured server. */
  readonly servers: readonly ResolvedServer[];
  /** The host's confirmation policy. */
  readonly policy: ToolPolicy;
  /** The host's UI hooks (`confirm`, `onToolCallUpdate`, `onProgress`). */
  readonly ui: UiHooks;
  /** The host's events (`tool-call-update`, `tool-progress`). */
  readonly events: HostEventEmitter;
  /** How results are mapped for the model. */
  readonly resultMapping: ResultMappingOptions;
  /** Overall cap of one call, in milliseconds. */
  readonly maxTotalTimeoutMs: number;
  /** A fresh tool-call id, used when the model gave none. */
  readonly newToolCallId: () => string;
  /** Runs the call on its server, with OAuth step-up around it (`HostSignIn.withStepUp`). */
  readonly withStepUp: (options: {
    readonly serverName: string;
    readonly what: string;
    readonly run: () => Promise<CallToolResult>;
    readonly signal: AbortSignal | undefined;
  }) => Promise<CallToolResult>;
}

/** Call a UI hook; like a faulty event listener, a hook that throws must not break the tool call. */
function callHook(run: () => void): void {
  try {
    run();
  } catch {
    // Ignored on purpose: `callTool` never throws for a failed call, let alone for a UI bug.
  }
}

/**
 * Wire {@link RunToolCallDependencies} to the host: look-up in discovery's registry, the
 * confirmation policy, the UI's `confirm` hook, the call through discovery (with step-up),
 * result mapping, and lifecycle and progress reports as events and UI hooks.
 */
export function createToolCallDependencies(options: ToolCallDependenciesOptions): RunToolCallDependencies {
  const { manager, servers, policy, ui, events } = options;
  return {
    findTool: (name) => findRegisteredTool({ name, tools: manager.tools, servers }),
    listToolNames: () => manager.tools.list().map((tool) => tool.registeredName),
    decide: (found, args) => policy.decide(found.subject, args),
    // Read on every call, as the hook may be set after the host was created.
    get confirm() {
      return ui.confirm?.bind(ui);
    },
    invoke: (tool, args, invokeOptions) =>
      options.withStepUp({
        serverName: tool.serverName,
        what: `call tool "${tool.originalName}"`,
        run: () => manager.callTool(tool.name, args, invokeOptions),
        signal: invokeOptions.signal,
      }),
    mapResult: (result, tool) => mapToolResult(result, tool, options.resultMapping),
    emit: (toolCall) => {
      events.emit('tool-call-update', toolCall);
      callHook(() => ui.onToolCallUpdate?.(toolCall));
    },
    onProgress: (event) => {
      events.emit('tool-progress', event);
      callHook(() => ui.onProgress?.(event));
    },
    maxTotalTimeoutMs: options.maxTotalTimeoutMs,
    newToolCallId: options.newToolCallId,
  };
}
