import type { AllowList } from './allow-list.js';
import type { AllowListStore } from './allow-list-store.js';
import { InMemoryAllowListStore } from './allow-list-store.js';
import { applyConfirmationOutcome, pinToolUnderServer, revokeApproval } from './apply-confirmation-outcome.js';
import { ConfirmationError } from './confirmation-error.js';
import { CONFIRMATION_OUTCOMES, type ConfirmationOutcome, isConfirmationOutcome } from './confirmation-outcome.js';
import type { ConfirmationRequest, ToolCallSubject } from './confirmation-request.js';
import { formatArgumentsPreview } from './confirmation-request.js';
import { diffToolDefinitions, formatToolDefinitionChanges } from './diff-tool-definitions.js';
import { evaluateAllowList } from './evaluate-allow-list.js';
import { hashToolDefinition } from './tool-definition.js';
import { ToolArgumentValidator } from './validate-tool-arguments.js';

/** Asks the user; resolves with their choice. Rejecting counts as `cancel`. */
export type ConfirmHandler = (request: ConfirmationRequest, options: { signal?: AbortSignal }) => Promise<ConfirmationOutcome>;

/** A host's own rule, checked before the allow-lists: `deny` wins over everything, `allow` over the allow-lists; `ask` or `undefined` falls through. */
export type HostPolicy = (subject: ToolCallSubject) => 'allow' | 'deny' | 'ask' | undefined;

/** Why a call may run without asking (or after asking). */
export type AllowReason = 'trusted' | 'host-policy' | 'configured-allow-list' | 'allow-list-tool' | 'allow-list-server' | 'user';

/** The answer of {@link ConfirmationPolicy.check}. */
export type ConfirmationCheck =
  | { readonly status: 'allowed'; readonly reason: AllowReason; readonly definitionHash: string }
  | { readonly status: 'denied'; readonly error: ConfirmationError; readonly request?: ConfirmationRequest }
  | { readonly status: 'ask'; readonly request: ConfirmationRequest; readonly subject: ToolCallSubject };

/** The final answer for one call. */
export type ConfirmationDecision =
  | { readonly allowed: true; readonly reason: AllowReason; readonly outcome?: ConfirmationOutcome; readonly request?: ConfirmationRequest }
  | { readonly allowed: false; readonly error: ConfirmationError; readonly outcome?: ConfirmationOutcome; readonly request?: ConfirmationRequest };

/** Options of {@link ConfirmationPolicy}. */
export interface ConfirmationPolicyOptions {
  /** Where "always allow" decisions are kept. @default new InMemoryAllowListStore() */
  store?: AllowListStore;
  /** Asks the user. Without it (and without `interactive: true`) calls that need confirmation are denied. */
  confirm?: ConfirmHandler;
  /** Whether `check` may answer `ask` (the host will ask itself). @default confirm !== undefined */
  interactive?: boolean;
  /** A host rule checked before the allow-lists (plan modes, headless auto-allow...). */
  hostPolicy?: HostPolicy;
  /** Configured allow-list entries, `serverName` or `serverName.toolName`; not pinned (the user wrote them). */
  allowList?: readonly string[];
  /** Validate arguments against the input schema before anything else. @default true */
  validateArguments?: boolean;
  /** Clock for `approvedAt`. @default () => new Date() */
  now?: () => Date;
}

function confirmationRequired(serverName: string, toolName: string): ConfirmationError {
  const message =
    `Tool '${toolName}' from MCP server '${serverName}' needs confirmation, but this host cannot ask (no confirm hook, or it is not interactive). ` +
    `To allow it, set "trust": true on the '${serverName}' entry in mcpServers, add "${serverName}.${toolName}" (this tool) or "${serverName}" (every tool of the server) to the allow-list, or allow it through the host's policy.`;
  return new ConfirmationError(message, { code: 'CONFIRMATION_REQUIRED', serverName, toolName });
}

/**
 * Decides whether an MCP tool call may run, as the seeds describe, with approvals pinned to
 * the tool's definition. Order: invalid arguments → denied (the model gets the message);
 * host policy `deny` → denied; `trust: true` → allowed; host policy `allow` → allowed;
 * configured allow-list → allowed; stored approval whose pin matches → allowed; otherwise the
 * user is asked (or, with no way to ask, denied with a message saying how to allow the tool).
 * Tool annotations such as `readOnlyHint` never allow anything.
 */
export class ConfirmationPolicy {
  private readonly store: AllowListStore;
  private readonly options: ConfirmationPolicyOptions;
  private readonly validator = new ToolArgumentValidator();
  private readonly hashes = new WeakMap<object, Promise<string>>();
  private loaded: Promise<AllowList> | undefined;
  private writes: Promise<void> = Promise.resolve();

  /** Create a policy; every option has a default. */
  constructor(options: ConfirmationPolicyOptions = {}) {
    this.options = options;
    this.store = options.store ?? new InMemoryAllowListStore();
  }

  /** The current allow-list (read from the store once, then kept in memory). */
  getAllowList(): Promise<AllowList> {
    this.loaded ??= this.store.read().catch((error: unknown) => {
      this.loaded = undefined;
      throw ConfirmationError.isInstance(error) ? error : new ConfirmationError(`Could not read the MCP allow-list: ${String(error)}`, { code: 'STORE_FAILED', cause: error });
    });
    return this.loaded;
  }

  private update(change: (allowList: AllowList) => AllowList): Promise<void> {
    const run = this.writes.then(async () => {
      const before = await this.getAllowList();
      const after = change(before);
      if (after === before) return;
      this.loaded = Promise.resolve(after);
      await this.store.write(after);
    });
    this.writes = run.catch(() => undefined);
    return run;
  }

  /** Decide without asking: `allowed`, `denied`, or `ask` with the request to show. */
  async check(subject: ToolCallSubject): Promise<ConfirmationCheck> {
    const { serverName, tool } = subject;
    const toolName = tool.name;
    if (this.options.validateArguments !== false) {
      const validation = this.validator.validate({ serverName, toolName, inputSchema: tool.inputSchema, arguments: subject.arguments });
      if (!validation.valid) return { status: 'denied', error: validation.error };
    }
    let hash = this.hashes.get(tool);
    if (hash === undefined) this.hashes.set(tool, (hash = hashToolDefinition(tool)));
    const definitionHash = await hash;
    const host = this.options.hostPolicy?.(subject);
    if (host === 'deny') {
      return { status: 'denied', error: new ConfirmationError(`The host's policy does not allow tool '${toolName}' from MCP server '${serverName}'.`, { code: 'DENIED_BY_POLICY', serverName, toolName }) };
    }
    if (subject.trust === true) return { status: 'allowed', reason: 'trusted', definitionHash };
    if (host === 'allow') return { status: 'allowed', reason: 'host-policy', definitionHash };
    const configured = this.options.allowList ?? [];
    if (configured.includes(serverName) || configured.includes(`${serverName}.${toolName}`)) return { status: 'allowed', reason: 'configured-allow-list', definitionHash };

    const verdict = evaluateAllowList(await this.getAllowList(), { serverName, toolName, definitionHash, serverIdentity: subject.serverIdentity });
    if (verdict.status === 'approved') {
      if (verdict.pinMissing) await this.update((list) => pinToolUnderServer(list, { serverName, toolName, definition: tool, definitionHash }));
      return { status: 'allowed', reason: verdict.scope === 'tool' ? 'allow-list-tool' : 'allow-list-server', definitionHash };
    }
    const changes = verdict.status === 'definition-changed' ? diffToolDefinitions(verdict.previous.definition, tool) : [];
    const request: ConfirmationRequest = {
      serverName,
      toolName,
      registeredName: subject.registeredName ?? toolName,
      arguments: subject.arguments,
      argumentsPreview: formatArgumentsPreview(subject.arguments),
      description: tool.description ?? '',
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
      ...(tool.inputSchema !== undefined ? { inputSchema: tool.inputSchema } : {}),
      options: CONFIRMATION_OUTCOMES,
      definitionHash,
      reason: verdict.status === 'not-listed' ? 'not-approved' : verdict.status,
      changes,
      changeSummary: formatToolDefinitionChanges(changes),
      ...(verdict.status === 'server-changed' ? { previousServerIdentity: verdict.previousIdentity } : {}),
    };
    const interactive = this.options.interactive ?? this.options.confirm !== undefined;
    if (!interactive) return { status: 'denied', error: confirmationRequired(serverName, toolName), request };
    return { status: 'ask', request, subject };
  }

  /**
   * Apply the user's answer to a request from `check`: record "always allow" choices, and
   * return the decision. Anything other than a known outcome counts as `cancel`.
   */
  async resolve(check: Extract<ConfirmationCheck, { status: 'ask' }>, outcome: unknown): Promise<ConfirmationDecision> {
    const { request, subject } = check;
    if (!isConfirmationOutcome(outcome) || outcome === 'cancel') {
      const error = new ConfirmationError(`The user declined to run tool '${request.toolName}' from MCP server '${request.serverName}'.`, { code: 'CANCELLED', serverName: request.serverName, toolName: request.toolName });
      return { allowed: false, error, outcome: 'cancel', request };
    }
    await this.update((list) =>
      applyConfirmationOutcome(list, outcome, {
        serverName: request.serverName,
        toolName: request.toolName,
        definition: subject.tool,
        definitionHash: request.definitionHash,
        ...(subject.serverIdentity !== undefined ? { serverIdentity: subject.serverIdentity } : {}),
        approvedAt: (this.options.now ?? (() => new Date()))().toISOString(),
      }),
    );
    return { allowed: true, reason: 'user', outcome, request };
  }

  /** `check`, then ask through `confirm` when needed, then `resolve`: the whole decision for one call. */
  async authorize(subject: ToolCallSubject, options: { signal?: AbortSignal } = {}): Promise<ConfirmationDecision> {
    const check = await this.check(subject);
    if (check.status === 'allowed') return { allowed: true, reason: check.reason };
    if (check.status === 'denied') return { allowed: false, error: check.error, ...(check.request ? { request: check.request } : {}) };
    const confirm = this.options.confirm;
    if (confirm === undefined) return { allowed: false, error: confirmationRequired(subject.serverName, subject.tool.name), request: check.request };
    let outcome: unknown = 'cancel';
    if (options.signal?.aborted !== true) {
      try {
        outcome = await confirm(check.request, options.signal ? { signal: options.signal } : {});
      } catch {
        outcome = 'cancel';
      }
    }
    if (options.signal?.aborted === true) outcome = 'cancel';
    return this.resolve(check, outcome);
  }

  /** Remove a stored approval: the whole server's, or one tool's. True when something was removed. */
  async revoke(target: { serverName: string; toolName?: string }): Promise<boolean> {
    let removed = false;
    await this.update((list) => {
      const next = revokeApproval(list, target.serverName, target.toolName);
      removed = next !== list;
      return next;
    });
    return removed;
  }
}
