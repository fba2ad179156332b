// The calls waiting for a user's decision, kept in the shared store (not in this process), so that
// the decision may reach any instance behind the load balancer: the instance that gets it runs the
// call again under the same tool call id, and answers the host's question with the user's choice
// when the question is the one the user saw.
import { createHash } from 'node:crypto';
import type { Keyv } from 'keyv';
import type { ConfirmationRequest } from '@toolhost/host';
import type { KeyvStores } from '@toolhost/stores';

/** One call waiting for the user's decision. */
export interface PendingCall {
  /** The tool name the client used. */
  readonly name: string;
  /** The arguments the client sent. */
  readonly arguments: Record<string, unknown>;
  /** What the user was shown (the host's confirmation request). */
  readonly details: ConfirmationRequest;
  /** When it was recorded (ms since the epoch). */
  readonly createdAt: number;
}

/** Tool call ids this server makes: `call-` and a UUID. */
export const TOOL_CALL_ID = /^call-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The pending calls of every user, in the process's Keyv, each under a key of its user. */
export class PendingCalls {
  readonly #keyv: Keyv;
  readonly #ttlMs: number;

  /** Keep records in `keyv` for `ttlMs` (then the decision comes too late: `404`). */
  constructor(keyv: Keyv, ttlMs: number) {
    this.#keyv = keyv;
    this.#ttlMs = ttlMs;
  }

  /** Record (or replace) the pending call `toolCallId` of `user`. */
  async put(user: string, toolCallId: string, call: PendingCall): Promise<void> {
    await this.#keyv.set(key(user, toolCallId), call, this.#ttlMs);
  }

  /**
   * Take the pending call `toolCallId` of `user` out of the store, under the user's lock of that
   * call across every instance, so that two decisions sent at once (to two instances) run it once.
   * `undefined` when there is none (unknown id, another user's id, expired, already decided).
   */
  async take(stores: KeyvStores, toolCallId: string): Promise<PendingCall | undefined> {
    return stores.tokens.withLock(`pending-call:${toolCallId}`, async () => {
      const stored = (await this.#keyv.get(key(stores.user, toolCallId))) as PendingCall | undefined;
      if (stored !== undefined) await this.#keyv.delete(key(stores.user, toolCallId));
      return stored;
    });
  }
}

/** `multi-user-server:v1:pending:<sha256 of the user id>:<tool call id>`: no user id can reach another user's keys. */
function key(user: string, toolCallId: string): string {
  return `multi-user-server:v1:pending:${createHash('sha256').update(user, 'utf8').digest('base64url')}:${toolCallId}`;
}

/** JSON with object keys sorted, to compare what the user saw with what the host asks now. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/** Whether the host now asks about the same tool (same definition, same server) and arguments as the user decided on. */
export function sameQuestion(seen: ConfirmationRequest, now: ConfirmationRequest): boolean {
  return (
    canonicalJson({ mcp: seen.mcpDetails, arguments: seen.arguments, server: seen.previousServerIdentity ?? null }) ===
    canonicalJson({ mcp: now.mcpDetails, arguments: now.arguments, server: now.previousServerIdentity ?? null })
  );
}
