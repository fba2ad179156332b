import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  ConfirmationPolicy,
  type AllowListStore,
  type ConfirmationCheck as PolicyCheck,
  type HostPolicy,
  type ToolDefinitionChange,
} from '@toolhost/confirmation';
import type { TokenStore } from '@toolhost/oauth';
import type { ConfirmationOptionId } from './tool-call.js';

/** Stores the host persists decisions and credentials in. */
export interface HostStores {
  /**
   * Where "always allow" approvals are kept (pinned to each tool's definition).
   * @default in memory; use `JsonFileAllowListStore` from `@toolhost/confirmation/node` to keep them across restarts
   */
  readonly approvals?: AllowListStore;
  /**
   * Where OAuth tokens are kept.
   * @default a file store at `~/<appDir>/mcp-oauth-tokens.json` when settings are read from files, else in memory
   */
  readonly tokens?: TokenStore;
}

/** A registered tool with what the policy needs to decide on it. */
export interface PolicySubject {
  /** The server. */
  readonly serverName: string;
  /** The name the model used. */
  readonly registeredName: string;
  /** The tool exactly as the server listed it (every field is pinned). */
  readonly tool: Tool;
  /** The server entry's `trust`. */
  readonly trust: boolean;
  /** The server's command line or URL, so an approval does not carry over to another server of the same name. */
  readonly serverIdentity: string;
}

/** What the policy decided before anyone is asked. */
export type PolicyDecision =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'invalid-arguments'; readonly message: string }
  | {
      readonly kind: 'denied';
      readonly message: string;
      /** Set when the call needed the user's confirmation but the host cannot ask: what would have been asked. */
      readonly unasked?: {
        readonly reason: string;
        readonly changes: readonly ToolDefinitionChange[];
        readonly changeSummary: string;
      };
    }
  | {
      readonly kind: 'ask';
      /** Why the user is asked: never approved, or approved before a definition or server change. */
      readonly reason: string;
      readonly changes: readonly ToolDefinitionChange[];
      readonly changeSummary: string;
      /** Record the user's answer (allow-lists, pinned approvals); false when it declines the call. */
      readonly resolve: (choice: ConfirmationOptionId) => Promise<boolean>;
    };

/** Options of {@link createToolPolicy}. */
export interface ToolPolicyOptions {
  /** Approval store. */
  readonly store?: AllowListStore;
  /** Whether the host can ask the user (it has a `confirm` hook). */
  readonly interactive: boolean;
  /** Configured allow-list entries (`server` or `server.tool`), allowed without asking and without pinning. */
  readonly allowList?: readonly string[];
  /** A host rule checked before the allow-lists. */
  readonly hostPolicy?: HostPolicy;
}

/** The host's view of `@toolhost/confirmation`: one decision per call. */
export interface ToolPolicy {
  /** Validate the arguments and decide whether the call may run, must be asked about, or is refused. */
  decide(subject: PolicySubject, args: Readonly<Record<string, unknown>>): Promise<PolicyDecision>;
  /** The confirmation policy underneath (to revoke approvals, read the allow-list). */
  readonly policy: ConfirmationPolicy;
}

/** Bind `@toolhost/confirmation`'s `ConfirmationPolicy` to the host's tool-call pipeline. */
export function createToolPolicy(options: ToolPolicyOptions): ToolPolicy {
  const policy = new ConfirmationPolicy({
    interactive: options.interactive,
    ...(options.store ? { store: options.store } : {}),
    ...(options.allowList ? { allowList: options.allowList } : {}),
    ...(options.hostPolicy ? { hostPolicy: options.hostPolicy } : {}),
  });
  return {
    policy,
    async decide(subject, args) {
      const check: PolicyCheck = await policy.check({
        serverName: subject.serverName,
        registeredName: subject.registeredName,
        tool: subject.tool as Tool & Record<string, unknown>,
        arguments: args,
        trust: subject.trust,
        serverIdentity: subject.serverIdentity,
      });
      if (check.status === 'allowed') return { kind: 'allowed' };
      if (check.status === 'denied') {
        if (check.error.code === 'INVALID_ARGUMENTS') return { kind: 'invalid-arguments', message: check.error.message };
        const { request } = check;
        return {
          kind: 'denied',
          message: check.error.message,
          ...(check.error.code === 'CONFIRMATION_REQUIRED' && request
            ? { unasked: { reason: request.reason, changes: request.changes, changeSummary: request.changeSummary } }
            : {}),
        };
      }
      return {
        kind: 'ask',
        reason: check.request.reason,
        changes: check.request.changes,
        changeSummary: check.request.changeSummary,
        resolve: async (choice) => (await policy.resolve(check, choice)).allowed,
      };
    },
  };
}
