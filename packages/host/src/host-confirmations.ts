import type { ConfirmationOutcome, ConfirmationRequest } from '@toolhost/contract';
import type { HostCore } from './host-core.js';
import type { PendingConfirmations } from './tool-call/pending-confirmations.js';

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

  /** @internal */
  constructor(core: HostCore, pending: PendingConfirmations) {
    this.#core = core;
    this.#pending = pending;
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
