import type { ConfirmationOutcome, ConfirmationRequest } from '@toolhost/contract';
import type { HostCore } from './host-core.js';
import type { ConfirmationCheck } from './tool-call/check-tool-call.js';
import type { PendingConfirmations } from './tool-call/pending-confirmations.js';

/** What {@link HostConfirmations.check} is asked about: one tool call, as `host.callTool` takes it. */
export interface ConfirmationCheckParams {
  /** The tool name the model used. */
  readonly name: string;
  /** The arguments the model produced. @default {} */
  readonly arguments?: Record<string, unknown>;
  /** The id the call will have; the `ask` request carries it. @default a new id */
  readonly toolCallId?: string;
}

/**
 * `host.confirmations`: the tool calls waiting for the user's decision, answered later by tool
 * call id. Every confirmation passes through here; the blocking `ui.confirm` hook is one way to
 * answer, {@link HostConfirmations.answer} the other, and the first answer wins. Without a
 * `confirm` hook, create the host with `deferConfirmations: true` so that calls wait for an answer
 * instead of being refused.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ projectDir: process.cwd(), deferConfirmations: true });
 * host.on('confirmation-pending', (request) => {
 *   // Show request.options to the user; when they choose:
 *   host.confirmations.answer({ toolCallId: request.toolCallId, optionId: 'proceed_once' });
 * });
 * ```
 */
export class HostConfirmations {
  readonly #core: HostCore;
  readonly #pending: PendingConfirmations;
  readonly #check: (params: ConfirmationCheckParams) => Promise<ConfirmationCheck>;

  /** @internal */
  constructor(core: HostCore, pending: PendingConfirmations, check: (params: ConfirmationCheckParams) => Promise<ConfirmationCheck>) {
    this.#core = core;
    this.#pending = pending;
    this.#check = check;
  }

  /**
   * What the host would do with this call, decided now without running it and without asking
   * anyone: `allowed` (it would run without asking: trusted server, host policy, allow-list, a
   * pinned "always allow"), `ask` (the user would be asked; `request` is the question, with the
   * options and why), or `denied` (it would not run: unknown tool, invalid arguments, the host's
   * policy, or nobody to ask). No event is emitted and nothing becomes pending. For frameworks
   * that ask the user themselves before running a tool (the AI SDK's `needsApproval`); the call
   * itself still goes through `callTool`, which decides again.
   *
   * @example
   * ```ts
   * const check = await host.confirmations.check({ name: 'fixture__echo', arguments: { message: 'hi' } });
   * if (check.status === 'ask') console.log(check.request.options.map((option) => option.name));
   * ```
   *
   * @throws HostError `CLOSED` after `close()`.
   */
  check(params: ConfirmationCheckParams): Promise<ConfirmationCheck> {
    this.#core.assertOpen();
    return this.#check(params);
  }

  /** The confirmation requests waiting for an answer, oldest first. */
  pending(): ConfirmationRequest[] {
    return this.#pending.list();
  }

  /**
   * Answer the confirmation of one waiting tool call with the id of one of its offered options
   * (`proceed_once`, `proceed_always_tool`, `proceed_always_server`, `cancel`). The call then goes
   * on (or is cancelled) as if the `confirm` hook had answered, and a `confirm` hook still asking
   * about it sees its signal abort. Synchronous: when it returns, the call is no longer pending.
   *
   * @throws HostError `CONFIRMATION_NOT_PENDING` when no call with this id is waiting (unknown id,
   * already answered, cancelled); `INVALID_CONFIRMATION_ANSWER` when `optionId` is not one of the
   * offered options (the call keeps waiting); `CLOSED` after `close()`.
   */
  answer(params: { readonly toolCallId: string; readonly optionId: ConfirmationOutcome | (string & {}) }): void {
    this.#core.assertOpen();
    this.#pending.answer(params.toolCallId, params.optionId);
  }
}
