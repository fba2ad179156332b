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

/** One entry of a user's index: which call waits, and until when. */
interface IndexEntry {
  readonly id: string;
  readonly expiresAt: number;
}

/** The lock of a user's pending calls (taken through the user's stores: shared by every instance). */
const LOCK = 'pending-calls';

/**
 * The pending calls of every user, in the process's Keyv, each under a key of its user, at most
 * `maxPerUser` per user: a user who asks and never decides cannot fill the shared store (each
 * record holds arguments of up to `--max-body-bytes`); past the bound, the user's oldest call is
 * dropped. Each user's calls are listed in an index record of their own, changed under the
 * user's lock so that every instance sees the same list.
 */
export class PendingCalls {
  readonly #keyv: Keyv;
  readonly #ttlMs: number;
  readonly #maxPerUser: number;

  /** Keep records in `keyv` for `ttlMs` (then the decision comes too late: `404`), at most `maxPerUser` per user. */
  constructor(keyv: Keyv, ttlMs: number, maxPerUser: number) {
    this.#keyv = keyv;
    this.#ttlMs = ttlMs;
    this.#maxPerUser = maxPerUser;
  }

  /** The most calls that wait for one user's decision. */
  get maxPerUser(): number {
    return this.#maxPerUser;
  }

  /** Record (or replace) the pending call `toolCallId` of the user of `stores`, dropping the user's oldest past the bound. */
  async put(stores: KeyvStores, toolCallId: string, call: PendingCall): Promise<void> {
    await stores.tokens.withLock(LOCK, async () => {
      const now = Date.now();
      const index = (await this.#index(stores.user)).filter((entry) => entry.id !== toolCallId && entry.expiresAt > now);
      while (index.length >= this.#maxPerUser) {
        const oldest = index.shift() as IndexEntry;
        await this.#keyv.delete(key(stores.user, oldest.id));
      }
      index.push({ id: toolCallId, expiresAt: now + this.#ttlMs });
      await this.#keyv.set(key(stores.user, toolCallId), call, this.#ttlMs);
      await this.#keyv.set(indexKey(stores.user), index, this.#ttlMs);
    });
  }

  /**
   * Take the pending call `toolCallId` of the user of `stores` out of the store, under the user's
   * lock across every instance, so that two decisions sent at once (to two instances) run it once.
   * `undefined` when there is none (unknown id, another user's id, expired, dropped for newer
   * ones, already decided).
   */
  async take(stores: KeyvStores, toolCallId: string): Promise<PendingCall | undefined> {
    return stores.tokens.withLock(LOCK, async () => {
      const stored = (await this.#keyv.get(key(stores.user, toolCallId))) as PendingCall | undefined;
      if (stored === undefined) return undefined;
      await this.#keyv.delete(key(stores.user, toolCallId));
      const now = Date.now();
      const index = (await this.#index(stores.user)).filter((entry) => entry.id !== toolCallId && entry.expiresAt > now);
      if (index.length === 0) await this.#keyv.delete(indexKey(stores.user));
      else await this.#keyv.set(indexKey(stores.user), index, Math.max(...index.map((entry) => entry.expiresAt)) - now);
      return stored;
    });
  }

  async #index(user: string): Promise<IndexEntry[]> {
    const stored: unknown = await this.#keyv.get(indexKey(user));
    return Array.isArray(stored) ? (stored as IndexEntry[]) : [];
  }
}

/** The key part of a user: the SHA-256 of the id, so that no user id can reach another user's keys. */
function userPart(user: string): string {
  return createHash('sha256').update(user, 'utf8').digest('base64url');
}

/** `multi-user-server:v1:pending:<sha256 of the user id>:<tool call id>`. */
function key(user: string, toolCallId: string): string {
  return `multi-user-server:v1:pending:${userPart(user)}:${toolCallId}`;
}

/** `multi-user-server:v1:pending-index:<sha256 of the user id>`: the user's pending calls, oldest first. */
function indexKey(user: string): string {
  return `multi-user-server:v1:pending-index:${userPart(user)}`;
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
