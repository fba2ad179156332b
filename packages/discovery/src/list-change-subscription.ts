import type { Client, McpSubscription } from '@modelcontextprotocol/client';

/** How often a dropped `subscriptions/listen` stream is reopened before giving up, and the pause before each try. */
const RELISTEN_DELAYS_MS = [250, 1_000, 5_000] as const;

/** Options of {@link ListChangeSubscription}. */
export interface ListChangeSubscriptionOptions {
  /** The connected client (2026-07-28 era). */
  readonly client: Client;
  /** Whether the session still wants events (false once it is closing or lost). */
  readonly active: () => boolean;
  /** Called when the stream cannot be kept open (for the server's log, never fatal). */
  readonly onGiveUp?: (error: unknown) => void;
}

/**
 * The 2026-07-28 way to hear about list changes: one `subscriptions/listen` stream asking for
 * every `listChanged` the server declares. Its notifications reach the client's ordinary
 * `notifications/<kind>/list_changed` handlers, so the same code serves both eras. A stream the
 * server or the network drops is reopened a few times with a growing pause; a graceful end
 * (the server shutting the subscription down) is not.
 */
export class ListChangeSubscription {
  readonly #options: ListChangeSubscriptionOptions;
  #subscription: McpSubscription | undefined;
  #failures = 0;
  #stopped = false;

  constructor(options: ListChangeSubscriptionOptions) {
    this.#options = options;
  }

  /** Whether a 2026-07-28 connection to this server has anything to listen for. */
  static wanted(client: Client): boolean {
    const capabilities = client.getServerCapabilities();
    return (
      client.getProtocolEra() === 'modern' &&
      Boolean(capabilities?.tools?.listChanged || capabilities?.prompts?.listChanged || capabilities?.resources?.listChanged)
    );
  }

  /** Opens the stream; resolves once the server acknowledged it (or gave up trying). */
  async open(): Promise<void> {
    const { client } = this.#options;
    const capabilities = client.getServerCapabilities();
    try {
      const subscription = await client.listen({
        ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
        ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
        ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
      });
      if (this.#stopped) {
        await subscription.close();
        return;
      }
      this.#subscription = subscription;
      this.#failures = 0;
      void subscription.closed.then((how) => {
        if (how === 'remote') this.#retry(new Error('the subscriptions/listen stream ended unexpectedly'));
      });
    } catch (error) {
      this.#retry(error);
    }
  }

  /** Closes the stream; no reopening after this. */
  async close(): Promise<void> {
    this.#stopped = true;
    await this.#subscription?.close().catch(() => undefined);
    this.#subscription = undefined;
  }

  #retry(error: unknown): void {
    this.#subscription = undefined;
    if (this.#stopped || !this.#options.active()) return;
    const delay = RELISTEN_DELAYS_MS[this.#failures];
    this.#failures += 1;
    if (delay === undefined) {
      this.#options.onGiveUp?.(error);
      return;
    }
    setTimeout(() => {
      if (!this.#stopped && this.#options.active()) void this.open();
    }, delay).unref();
  }
}
