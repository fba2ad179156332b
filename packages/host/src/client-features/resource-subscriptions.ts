import type { Client } from '@modelcontextprotocol/client';
import { HostError } from '../host-error.js';

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
 * `resources/subscribe` and `resources/unsubscribe` for one client, with the
 * `notifications/resources/updated` handler installed on construction.
 */
export class ResourceSubscriptions {
  readonly #uris = new Set<string>();
  readonly #client: Client;
  readonly #options: ResourceSubscriptionsOptions;

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

  /** Subscribe to a URI; throws `CAPABILITY_NOT_SUPPORTED` when the server offers no subscriptions. */
  async subscribe(uri: string): Promise<void> {
    if (!this.#client.getServerCapabilities()?.resources?.subscribe) {
      throw new HostError({
        code: 'CAPABILITY_NOT_SUPPORTED',
        serverName: this.#options.serverName,
        uri,
        message: `MCP server '${this.#options.serverName}' does not offer resource subscriptions, so '${uri}' cannot be watched.`,
      });
    }
    await this.#client.subscribeResource({ uri });
    this.#uris.add(uri);
  }

  /** Unsubscribe from a URI (no request when it was not subscribed). */
  async unsubscribe(uri: string): Promise<void> {
    if (!this.#uris.delete(uri)) return;
    await this.#client.unsubscribeResource({ uri });
  }
}
