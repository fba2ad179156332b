import type { ConfirmationOutcome, ConfirmationRequest } from '@toolhost/contract';
import type { AllowList } from './allow-list.js';
import { InMemoryAllowListStore, type AllowListStore } from './allow-list-store.js';
import { applyConfirmationOutcome, pinToolUnderServer, revokeApproval } from './apply-confirmation-outcome.js';
import { resolveConfirmationAnswer } from './confirmation-answer.js';
import { ConfirmationError } from './confirmation-error.js';
import { buildConfirmationRequest, type ToolCallSubject } from './confirmation-request.js';
import { diffToolDefinitions } from './diff-tool-definitions.js';
import { evaluateAllowList, type AllowListVerdict } from './evaluate-allow-list.js';
import { hashToolDefinition, type ToolDefinition } from './tool-definition.js';

/**
 * A host's own rule, checked first: `deny` refuses whatever else allows the call, `allow` runs
 * it without asking (unless `deny`), `ask` or `undefined` falls through to trust and the
 * allow-lists. Use it for plan modes, read-only sessions, headless auto-allow.
 */
export type HostPolicy = (subject: ToolCallSubject) => 'allow' | 'deny' | 'ask' | undefined;

/** Why a call may run. */
export type AllowReason = 'trusted' | 'host-policy' | 'configured-allow-list' | 'allow-list-tool' | 'allow-list-server' | 'user';

/** The user's answer, once applied. */
export type AnswerDecision =
  /** The call may run; "always" outcomes were recorded. */
  | { readonly allowed: true; readonly outcome: ConfirmationOutcome }
  /** The user declined (`TOOL_CALL_DENIED`). */
  | { readonly allowed: false; readonly outcome: 'cancel'; readonly error: ConfirmationError };

/** The decision on one call, before anyone is asked. */
export type Authorization =
  /** It may run without asking. */
  | { readonly status: 'allowed'; readonly reason: AllowReason }
  /**
   * It may not run: `DENIED_BY_POLICY`, or `CONFIRMATION_REQUIRED` when it needs the user but the
   * policy is not interactive (then `request` is what would have been asked).
   */
  | { readonly status: 'denied'; readonly error: ConfirmationError; readonly request?: ConfirmationRequest }
  /**
   * The user must decide: show `request`, then pass the answer (an option id or option object) to
   * `answer`, which records "always allow" choices. `answer` rejects with a `ConfirmationError`
   * `INVALID_CONFIRMATION_ANSWER` when the answer is not one of the offered options.
   */
  | {
      readonly status: 'ask';
      readonly request: ConfirmationRequest;
      answer(answer: unknown): Promise<AnswerDecision>;
    };

/** Options of {@link ConfirmationPolicy}; every one has a default. */
export interface ConfirmationPolicyOptions {
  /** Where "always allow" decisions are kept. @default new InMemoryAllowListStore() */
  readonly store?: AllowListStore;
  /**
   * Whether the host can ask the user; a function is read on every decision. When false, a call
   * that needs confirmation is denied with `CONFIRMATION_REQUIRED`. @default true
   */
  readonly interactive?: boolean | (() => boolean);
  /** A host rule checked first (see {@link HostPolicy}). */
  readonly hostPolicy?: HostPolicy;
  /** Configured allow-list entries, `serverName` or `serverName.toolName`; not pinned (the user wrote them). */
  readonly allowList?: readonly string[];
  /** Clock for `approvedAt`. @default () => new Date() */
  readonly now?: () => Date;
}

function confirmationRequired(subject: ToolCallSubject): ConfirmationError {
  const { serverName } = subject;
  const toolName = subject.tool.name;
  return new ConfirmationError({
    code: 'CONFIRMATION_REQUIRED',
    serverName,
    toolName,
    message:
      `Tool '${toolName}' from MCP server '${serverName}' needs confirmation, but this host cannot ask (it has no confirm hook). ` +
      `To allow it, set "trust": true on the '${serverName}' entry in mcpServers, add "${serverName}.${toolName}" (this tool) or "${serverName}" (every tool of the server) to the allow-list, or allow it through the host's policy.`,
  });
}

/**
 * Decides whether an MCP tool call may run, as Gemini CLI does, with "always allow" approvals
 * pinned to the tool's whole definition (a changed definition asks again, showing what changed).
 * Order: host policy `deny` → denied; `trust: true` → allowed; host policy `allow` → allowed;
 * configured allow-list → allowed; stored approval whose pin matches → allowed; otherwise the
 * user is asked (or, when the host cannot ask, denied with a message saying how to allow the
 * tool). Tool annotations such as `readOnlyHint` never allow anything.
 *
 * `authorize` answers synchronously whenever it can (trust, host policy, configured allow-list,
 * and stored approvals once the store was read and the tool's definition hashed), so a
 * pre-approved call costs no extra asynchronous step.
 *
 * Several processes may share one store (several instances of an app): before asking the user
 * (or refusing because it cannot ask), the policy reads the store again, and a call approved
 * meanwhile through another process runs without asking; only that path reads again, so trusted
 * and approved calls cost nothing extra. Each change ("always allow", a pin, `revoke`) goes
 * through the store's `update` when it has one, so changes made by different processes at the
 * same time are merged rather than overwritten. A revocation made through another process is
 * seen here once the list is read again.
 *
 * @example
 * ```ts
 * const policy = new ConfirmationPolicy({ allowList: ['docs'] });
 * const authorization = await policy.authorize(subject);
 * if (authorization.status === 'ask') {
 *   const decision = await authorization.answer(await ui.confirm(authorization.request, {}));
 *   if (!decision.allowed) console.log(decision.error.message);
 * }
 * ```
 */
export class ConfirmationPolicy {
  readonly #store: AllowListStore;
  readonly #options: ConfirmationPolicyOptions;
  readonly #configured: ReadonlySet<string>;
  readonly #hashes = new WeakMap<object, string | Promise<string>>();
  #allowList: AllowList | undefined;
  #loading: Promise<AllowList> | undefined;
  #writes: Promise<void> = Promise.resolve();

  /** Create a policy; every option has a default. */
  constructor(options: ConfirmationPolicyOptions = {}) {
    this.#options = options;
    this.#store = options.store ?? new InMemoryAllowListStore();
    this.#configured = new Set(options.allowList ?? []);
  }

  /**
   * The current allow-list: read from the store once, then kept in memory, and replaced whenever
   * the store is read again (before asking the user) or changed.
   */
  getAllowList(): Promise<AllowList> {
    if (this.#allowList) return Promise.resolve(this.#allowList);
    this.#loading ??= this.#store.read().then(
      (allowList) => (this.#allowList = allowList),
      (error: unknown) => {
        this.#loading = undefined;
        throw readFailure(error);
      },
    );
    return this.#loading;
  }

  /** Decide on one call without asking; synchronous whenever the answer is known (see the class). */
  authorize(subject: ToolCallSubject): Authorization | Promise<Authorization> {
    const host = this.#options.hostPolicy?.(subject);
    if (host === 'deny') {
      const { serverName } = subject;
      const toolName = subject.tool.name;
      return {
        status: 'denied',
        error: new ConfirmationError({
          code: 'DENIED_BY_POLICY',
          serverName,
          toolName,
          message: `The host's policy does not allow tool '${toolName}' from MCP server '${serverName}'.`,
        }),
      };
    }
    if (subject.trust === true) return { status: 'allowed', reason: 'trusted' };
    if (host === 'allow') return { status: 'allowed', reason: 'host-policy' };
    if (this.#configured.has(subject.serverName) || this.#configured.has(`${subject.serverName}.${subject.tool.name}`)) {
      return { status: 'allowed', reason: 'configured-allow-list' };
    }
    const hash = this.#hash(subject.tool);
    if (typeof hash === 'string' && this.#allowList) return this.#decideStored(subject, this.#allowList, hash, false);
    // A list read for this call is as fresh as a second read would be.
    const fresh = this.#allowList === undefined;
    return Promise.all([hash, this.getAllowList()]).then(([definitionHash, allowList]) =>
      this.#decideStored(subject, allowList, definitionHash, fresh),
    );
  }

  /** Remove a stored approval: the whole server's, or one tool's. True when something was removed. */
  async revoke(target: { readonly serverName: string; readonly toolName?: string }): Promise<boolean> {
    let removed = false;
    await this.#update((list) => {
      const next = revokeApproval(list, target.serverName, target.toolName);
      removed = next !== list;
      return next;
    });
    return removed;
  }

  /**
   * The decision the allow-list gives. When it would ask (or refuse because it cannot ask) and
   * `fresh` is false, the store is read again first and the decision taken on what it holds now.
   */
  #decideStored(
    subject: ToolCallSubject,
    allowList: AllowList,
    definitionHash: string,
    fresh: boolean,
  ): Authorization | Promise<Authorization> {
    const { serverName, tool } = subject;
    const verdict = evaluateAllowList(allowList, {
      serverName,
      toolName: tool.name,
      definitionHash,
      ...(subject.serverIdentity !== undefined ? { serverIdentity: subject.serverIdentity } : {}),
    });
    if (verdict.status === 'approved') {
      const allowed: Authorization = { status: 'allowed', reason: verdict.scope === 'tool' ? 'allow-list-tool' : 'allow-list-server' };
      if (!verdict.pinMissing) return allowed;
      return this.#update((list) => pinToolUnderServer(list, { serverName, toolName: tool.name, definition: tool, definitionHash })).then(
        () => allowed,
      );
    }
    // Another process sharing the store may have approved it since the list was read.
    if (!fresh) return this.#reread(allowList).then((current) => this.#decideStored(subject, current, definitionHash, true));
    const request = buildConfirmationRequest(subject, requestContext(verdict, tool));
    const interactive = this.#options.interactive ?? true;
    if (!(typeof interactive === 'function' ? interactive() : interactive)) {
      return { status: 'denied', error: confirmationRequired(subject), request };
    }
    return { status: 'ask', request, answer: (answer) => this.#answer(subject, request, definitionHash, answer) };
  }

  async #answer(subject: ToolCallSubject, request: ConfirmationRequest, definitionHash: string, answer: unknown): Promise<AnswerDecision> {
    const outcome = resolveConfirmationAnswer(request, answer);
    const { serverName } = subject;
    const toolName = subject.tool.name;
    if (outcome === 'cancel') {
      const error = new ConfirmationError({
        code: 'TOOL_CALL_DENIED',
        serverName,
        toolName,
        message: `The user declined to run tool '${toolName}' from MCP server '${serverName}'.`,
      });
      return { allowed: false, outcome, error };
    }
    if (outcome === 'proceed_always_tool' || outcome === 'proceed_always_server') {
      const approvedAt = (this.#options.now ?? (() => new Date()))().toISOString();
      await this.#update((list) =>
        applyConfirmationOutcome(list, outcome, {
          serverName,
          toolName,
          definition: subject.tool,
          definitionHash,
          ...(subject.serverIdentity !== undefined ? { serverIdentity: subject.serverIdentity } : {}),
          approvedAt,
        }),
      );
    }
    return { allowed: true, outcome };
  }

  /** The definition's hash: the string once known, a promise the first time a definition is seen. */
  #hash(tool: ToolDefinition): string | Promise<string> {
    const known = this.#hashes.get(tool);
    if (known !== undefined) return known;
    const pending = hashToolDefinition(tool).then((hash) => {
      this.#hashes.set(tool, hash);
      return hash;
    });
    this.#hashes.set(tool, pending);
    return pending;
  }

  /**
   * The list as stored now, kept in memory (after this policy's pending writes, so it is never
   * older than they are). When the store cannot be read, `cached` (the user is then asked, as before).
   */
  #reread(cached: AllowList): Promise<AllowList> {
    const run = this.#writes.then(async () => {
      try {
        this.#allowList = await this.#store.read();
      } catch {
        return this.#allowList ?? cached;
      }
      return this.#allowList;
    });
    this.#writes = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  #update(change: (allowList: AllowList) => AllowList): Promise<void> {
    const run = this.#writes.then(async () => {
      const { update } = this.#store;
      if (update) {
        // Applied to the list as stored now, atomically: changes from other processes are kept.
        try {
          this.#allowList = await update.call(this.#store, change);
        } catch (error) {
          throw writeFailure(error);
        }
        return;
      }
      const before = await this.getAllowList();
      const after = change(before);
      if (after === before) return;
      try {
        await this.#store.write(after);
      } catch (error) {
        throw writeFailure(error);
      }
      this.#allowList = after;
    });
    this.#writes = run.catch(() => undefined);
    return run;
  }
}

function readFailure(error: unknown): ConfirmationError {
  return ConfirmationError.isInstance(error)
    ? error
    : new ConfirmationError({ code: 'STORE_FAILED', message: `Could not read the MCP allow-list: ${String(error)}`, cause: error });
}

function writeFailure(error: unknown): ConfirmationError {
  return ConfirmationError.isInstance(error)
    ? error
    : new ConfirmationError({ code: 'STORE_FAILED', message: `Could not save the MCP allow-list: ${String(error)}`, cause: error });
}

function requestContext(verdict: Exclude<AllowListVerdict, { status: 'approved' }>, tool: ToolDefinition) {
  if (verdict.status === 'definition-changed') {
    return { reason: 'definition-changed' as const, changes: diffToolDefinitions(verdict.previous.definition, tool) };
  }
  if (verdict.status === 'server-changed') return { reason: 'server-changed' as const, previousServerIdentity: verdict.previousIdentity };
  return { reason: 'not-approved' as const };
}
