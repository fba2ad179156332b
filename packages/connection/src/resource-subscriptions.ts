import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import { ConnectionError } from './connection-error.js';

/** A `notifications/resources/updated` from a server. */
export interface ResourceUpdatedEvent {
  /** The server that sent it. */
  readonly serverName: string;
  /** The URI that changed (may be a sub-resource of a subscribed URI). */
  readonly uri: string;
}

/** Options of {@link ResourceSubscriptions}. */
export interface ResourceSubscriptionsOptions {
  /** The server the client is connected to. */
  readonly serverName: string;
  /** Receives every update notification (the host turns it into a `resource-update` event). */
  readonly onUpdated: (event: ResourceUpdatedEvent) => void;
}

/**
 * Resource subscriptions for one client, with the `notifications/resources/updated` handler
 * installed on construction. On 2025-era connections: `resources/subscribe` and
 * `resources/unsubscribe`. On 2026-07-28 ones, which have neither: one `subscriptions/listen`
 * stream whose filter names every subscribed URI, reopened with the new set on each change.
 */
export class ResourceSubscriptions {
  readonly #uris = new Set<string>();
  readonly #client: Client;
  readonly #options: ResourceSubscriptionsOptions;
  #listen: McpSubscription | undefined;
  /** Serialises stream replacements, so two quick changes cannot leave two streams open. */
  #relisten: Promise<void> = Promise.resolve();

  constructor(client: Client, options: ResourceSubscriptionsOptions) {
    this.#client = client;
    this.#options = options;
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      options.onUpdated({ serverName: options.serverName, uri: notification.params.uri });
    });
  }

  /** URIs currently subscribed to. */
  list(): string[] {
    return [...this.#uris];
  }

  /** Subscribe to a URI; throws a {@link ConnectionError} `CAPABILITY_NOT_SUPPORTED` when the server offers no subscriptions. */
  async subscribe(uri: string): Promise<void> {
    if (!this.#client.getServerCapabilities()?.resources?.subscribe) {
      throw new ConnectionError({
        code: 'CAPABILITY_NOT_SUPPORTED',
        serverName: this.#options.serverName,
        uri,
        message: `MCP server '${this.#options.serverName}' does not offer resource subscriptions, so '${uri}' cannot be watched.`,
      });
    }
    if (this.#modern()) {
      if (this.#uris.has(uri)) return;
      this.#uris.add(uri);
      try {
        await this.#replaceStream();
      } catch (error) {
        this.#uris.delete(uri);
        throw error;
      }
      return;
    }
    await this.#client.subscribeResource({ uri });
    this.#uris.add(uri);
  }

  /** Unsubscribe from a URI (no request when it was not subscribed). */
  async unsubscribe(uri: string): Promise<void> {
    if (!this.#uris.delete(uri)) return;
    if (this.#modern()) {
      await this.#replaceStream();
      return;
    }
    await this.#client.unsubscribeResource({ uri });
  }

  /** Closes the 2026-07-28 stream, if any (the connection is going away). */
  async close(): Promise<void> {
    const stream = this.#listen;
    this.#listen = undefined;
    await stream?.close().catch(() => undefined);
  }

  #modern(): boolean {
    return this.#client.getProtocolEra() === 'modern';
  }

  #replaceStream(): Promise<void> {
    const next = this.#relisten.then(async () => {
      const previous = this.#listen;
      this.#listen = undefined;
      if (this.#uris.size > 0) this.#listen = await this.#client.listen({ resourceSubscriptions: [...this.#uris] });
      await previous?.close().catch(() => undefined);
    });
    // A failed replacement must not block the next one.
    this.#relisten = next.catch(() => undefined);
    return next;
  }
}
