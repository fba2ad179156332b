import { ProtocolError, type JSONRPCRequest, type Result } from '@modelcontextprotocol/client';

/** The server-to-client requests that are rate-limited: each may reach the user or the model. */
export const RATE_LIMITED_METHODS: ReadonlySet<string> = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/** JSON-RPC error code of the answer to a server-to-client request refused by the rate limit. */
export const RATE_LIMITED_CODE = -32097;

/** Limits of server-to-client requests (elicitation, sampling, roots list), per server. */
export interface ServerRequestLimits {
  /** Requests of one server being handled at the same time. @default 4 */
  readonly maxConcurrent?: number;
  /** Requests of one server accepted within any one second. @default 10 */
  readonly maxPerSecond?: number;
}

/** Default {@link ServerRequestLimits.maxConcurrent}. */
export const DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS = 4;
/** Default {@link ServerRequestLimits.maxPerSecond}. */
export const DEFAULT_MAX_SERVER_REQUESTS_PER_SECOND = 10;

/**
 * Admits a server's requests (elicitation, sampling, roots list, counted together) up to
 * `maxConcurrent` at a time and `maxPerSecond` per second; the excess is answered at once with
 * a JSON-RPC error ({@link RATE_LIMITED_CODE}) saying it was rate-limited, so a flooding server
 * can neither queue hundreds of dialogs nor keep the host busy.
 */
export class ServerRequestLimiter {
  readonly #serverName: string;
  readonly #maxConcurrent: number;
  readonly #maxPerSecond: number;
  #active = 0;
  /** Start times of the requests admitted within the last second, oldest first. */
  #recent: number[] = [];

  constructor(serverName: string, limits: ServerRequestLimits = {}) {
    this.#serverName = serverName;
    this.#maxConcurrent = limits.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_SERVER_REQUESTS;
    this.#maxPerSecond = limits.maxPerSecond ?? DEFAULT_MAX_SERVER_REQUESTS_PER_SECOND;
  }

  /** `handler`, refusing the requests over the limits (only for {@link RATE_LIMITED_METHODS}). */
  wrap<C>(
    method: string,
    handler: (request: JSONRPCRequest, ctx: C) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: C) => Promise<Result> {
    if (!RATE_LIMITED_METHODS.has(method)) return handler;
    return async (request, ctx) => {
      this.#admit(method);
      try {
        return await handler(request, ctx);
      } finally {
        this.#active -= 1;
      }
    };
  }

  #admit(method: string): void {
    const now = Date.now();
    let expired = 0;
    while (expired < this.#recent.length && (this.#recent[expired] ?? now) <= now - 1000) expired += 1;
    if (expired > 0) this.#recent = this.#recent.slice(expired);
    if (this.#active >= this.#maxConcurrent || this.#recent.length >= this.#maxPerSecond) {
      throw new ProtocolError(
        RATE_LIMITED_CODE,
        `Rate-limited: MCP server '${this.#serverName}' sent too many ${method} requests ` +
          `(at most ${this.#maxConcurrent} at a time and ${this.#maxPerSecond} per second); this one was refused.`,
      );
    }
    this.#active += 1;
    this.#recent.push(now);
  }
}
