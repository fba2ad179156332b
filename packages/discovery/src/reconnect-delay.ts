/** Reconnect policy for a server that went away after it was connected. */
export interface ReconnectOptions {
  /**
   * Attempts before giving up (0 disables reconnecting). The count is reset only by a connection
   * that stayed up for at least `maxDelayMs` (or by `reconnect(name)`), so a server that drops
   * again right after every reconnect still runs into this limit. @default 5
   */
  maxAttempts?: number;
  /** Delay before the first attempt, in milliseconds. @default 1000 */
  initialDelayMs?: number;
  /** Upper bound of the delay between attempts, in milliseconds. @default 30000 */
  maxDelayMs?: number;
}

/** {@link ReconnectOptions} with every default applied. */
export type ResolvedReconnectOptions = Required<ReconnectOptions>;

/** Apply the defaults of {@link ReconnectOptions}. */
export function resolveReconnectOptions(options: ReconnectOptions | undefined): ResolvedReconnectOptions {
  return {
    maxAttempts: options?.maxAttempts ?? 5,
    initialDelayMs: options?.initialDelayMs ?? 1000,
    maxDelayMs: options?.maxDelayMs ?? 30_000,
  };
}

/**
 * Delay before reconnect attempt `attempt` (1-based): exponential, capped at `maxDelayMs`,
 * with up to 20% random jitter taken off so many hosts do not retry in lockstep.
 */
export function reconnectDelay(attempt: number, options: ResolvedReconnectOptions, random = Math.random): number {
  const exponential = options.initialDelayMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(options.maxDelayMs, exponential);
  return Math.round(capped * (1 - 0.2 * random()));
}
