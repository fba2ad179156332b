import type { ConfirmationRequest } from '@toolhost/contract';
import { HostError } from '../host-error.js';
import type { HostEventEmitter } from '../host-events.js';

/** How a pending confirmation ended. */
export type ConfirmationSettlement =
  /** Answered, through `host.confirmations.answer()` (an offered option id) or by the `confirm` hook (its raw answer). */
  | { readonly kind: 'answer'; readonly answer: unknown }
  /** The call's signal aborted. */
  | { readonly kind: 'aborted' }
  /** The `confirm` hook threw or rejected before anyone answered. */
  | { readonly kind: 'hook-failed'; readonly error: unknown }
  /** The host closed. */
  | { readonly kind: 'closed' };

interface PendingEntry {
  readonly request: ConfirmationRequest;
  settle(settlement: ConfirmationSettlement): void;
}

/** How many settled ids are remembered, to say "already answered" rather than "unknown". */
const REMEMBERED_SETTLED = 1024;

/**
 * The tool calls waiting for the user's decision, by tool call id. Every confirmation goes
 * through here: the `confirm` hook (when there is one) is only one of the ways to answer it,
 * `host.confirmations.answer()` is the other, and the first answer wins.
 */
export class PendingConfirmations {
  readonly #events: HostEventEmitter;
  readonly #pending = new Map<string, PendingEntry>();
  /** Recently settled ids → whether they were answered (else cancelled or closed). */
  readonly #settled = new Map<string, boolean>();

  constructor(events: HostEventEmitter) {
    this.#events = events;
  }

  /** Whether a call with this id is waiting. */
  has(toolCallId: string): boolean {
    return this.#pending.has(toolCallId);
  }

  /** The requests waiting for an answer, oldest first. */
  list(): ConfirmationRequest[] {
    return [...this.#pending.values()].map((entry) => entry.request);
  }

  /**
   * Register `request` as pending, announce it (`confirmation-pending`), ask `hook` when given,
   * and settle on the first of: an answer through {@link PendingConfirmations.answer}, the hook's
   * answer, the hook's failure, `signal` aborting, or {@link PendingConfirmations.closeAll}.
   * The hook's signal aborts as soon as the confirmation is settled another way.
   * The caller checks {@link PendingConfirmations.has} first: ids must be unique.
   */
  wait(
    request: ConfirmationRequest,
    signal: AbortSignal | undefined,
    hook: ((signal: AbortSignal) => Promise<unknown>) | undefined,
  ): Promise<ConfirmationSettlement> {
    const toolCallId = request.toolCallId;
    return new Promise<ConfirmationSettlement>((resolve) => {
      const hookController = new AbortController();
      let done = false;
      const onAbort = (): void => settle({ kind: 'aborted' });
      let hookRunning = false;
      const settle = (settlement: ConfirmationSettlement): void => {
        if (done) return;
        done = true;
        this.#pending.delete(toolCallId);
        this.#remember(toolCallId, settlement.kind === 'answer');
        signal?.removeEventListener('abort', onAbort);
        // Only a hook still running needs telling; a hook that settled it is done (and on Node 20
        // abort() builds a DOMException with a stack, a large share of a confirmed call's cost).
        if (hookRunning) hookController.abort();
        resolve(settlement);
      };
      this.#pending.set(toolCallId, { request, settle });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#events.emit('confirmation-pending', request);
      if (!hook || done) return;
      let asked: Promise<unknown>;
      hookRunning = true;
      try {
        asked = hook(hookController.signal);
      } catch (error) {
        hookRunning = false;
        settle({ kind: 'hook-failed', error });
        return;
      }
      Promise.resolve(asked).then(
        (answer) => {
          hookRunning = false;
          settle({ kind: 'answer', answer });
        },
        (error: unknown) => {
          hookRunning = false;
          settle({ kind: 'hook-failed', error });
        },
      );
    });
  }

  /**
   * Answer a pending confirmation with the id of one of its offered options.
   *
   * @throws HostError `CONFIRMATION_NOT_PENDING` when no call with this id is waiting (unknown,
   * already answered, or ended); `INVALID_CONFIRMATION_ANSWER` when `optionId` is not one of the
   * offered options (the call keeps waiting).
   */
  answer(toolCallId: string, optionId: string): void {
    const entry = typeof toolCallId === 'string' ? this.#pending.get(toolCallId) : undefined;
    if (!entry) {
      const answered = this.#settled.get(toolCallId);
      const shown = JSON.stringify(String(toolCallId)).slice(0, 200);
      throw new HostError({
        code: 'CONFIRMATION_NOT_PENDING',
        message:
          answered === true
            ? `Tool call ${shown} was already answered; a confirmation is answered once.`
            : answered === false
              ? `Tool call ${shown} is no longer waiting for confirmation: it was cancelled or the host closed.`
              : `No tool call with id ${shown} is waiting for confirmation; host.confirmations.pending() lists the ones that are.`,
      });
    }
    const { request } = entry;
    if (!request.options.some((option) => option.id === optionId)) {
      const accepted = request.options.map((option) => `'${option.id}'`).join(', ');
      throw new HostError({
        code: 'INVALID_CONFIRMATION_ANSWER',
        serverName: request.mcpDetails.serverName,
        toolName: request.mcpDetails.registeredName,
        message: `${JSON.stringify(String(optionId)).slice(0, 200)} is not one of the options offered for tool call "${toolCallId}" (tool '${request.mcpDetails.toolName}' of MCP server '${request.mcpDetails.serverName}'); answer with ${accepted}. The call is still waiting.`,
      });
    }
    entry.settle({ kind: 'answer', answer: optionId });
  }

  /** Settle every pending confirmation as closed (the host is closing). */
  closeAll(): void {
    for (const entry of [...this.#pending.values()]) entry.settle({ kind: 'closed' });
  }

  #remember(toolCallId: string, answered: boolean): void {
    this.#settled.delete(toolCallId);
    this.#settled.set(toolCallId, answered);
    if (this.#settled.size > REMEMBERED_SETTLED) {
      const oldest = this.#settled.keys().next().value;
      if (oldest !== undefined) this.#settled.delete(oldest);
    }
  }
}
