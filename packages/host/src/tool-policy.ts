import type { HostToolDefinition } from './model-adapter.js';
import type { ResolvedServer } from './resolve-servers.js';
import type { ConfirmationCheck } from './run-tool-call.js';
import type { ConfirmationOptionId } from './tool-call.js';

/** Stores the host persists decisions in. */
export interface HostStores {
  /** Where "always allow" approvals are kept. @default in memory */
  readonly approvals?: unknown;
}

/** Decides whether a call may run, validates arguments, and records the user's choices. */
export interface ToolPolicy {
  /** A message describing invalid arguments, or undefined. */
  validateArguments(tool: HostToolDefinition, args: Readonly<Record<string, unknown>>): string | undefined;
  /** Whether the call may run without asking. */
  check(tool: HostToolDefinition): Promise<ConfirmationCheck>;
  /** Record a choice the user made. */
  record(tool: HostToolDefinition, choice: ConfirmationOptionId): Promise<void>;
}

/** PROVISIONAL until @toolhost/confirmation lands: trust only. */
export function createToolPolicy(options: { servers: readonly ResolvedServer[]; stores?: HostStores }): ToolPolicy {
  return {
    validateArguments: () => undefined,
    check: async (tool) =>
      options.servers.find((server) => server.name === tool.serverName)?.config.trust ? { kind: 'allowed' } : { kind: 'ask' },
    record: async () => undefined,
  };
}
