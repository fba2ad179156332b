// The raw v2 SDK side of the discovery benchmark: one `Client` from `@modelcontextprotocol/client`
// per server, used directly (see sdk-baseline-client.ts for how it is built and connected).
import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import { connectSdkClient } from './sdk-baseline-client.js';
import type { StdioServerEntry } from './wires.js';

/** What one raw discovery run saw: the revision each client negotiated, in server order. */
export interface SdkDiscovery {
  readonly protocolVersions: ReadonlyArray<string | undefined>;
}

/**
 * What `@toolhost/discovery` does on a 2026-07-28 connection before it lists anything: one
 * `subscriptions/listen` stream for the `listChanged` kinds the server declares (2025-era
 * servers send list_changed unasked, so there is nothing to open there).
 */
export async function listenLikeDiscovery(client: Client): Promise<McpSubscription | undefined> {
  const capabilities = client.getServerCapabilities();
  const filter = {
    ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
  if (client.getProtocolEra() !== 'modern' || Object.keys(filter).length === 0) return undefined;
  return client.listen(filter);
}

/**
 * Discovery with raw SDK clients: for every entry in parallel, connect a new `Client` (toolhost's
 * version negotiation, SDK defaults otherwise), open the list-change subscription where toolhost
 * does, list every page of tools, prompts, resources and resource templates the server declares
 * (the SDK's `list*()` skip an undeclared capability), check tools came back; then close every
 * subscription and client (which ends the child processes).
 */
export async function discoverWithSdk(entries: readonly StdioServerEntry[]): Promise<SdkDiscovery> {
  const clients: Client[] = [];
  const subscriptions: McpSubscription[] = [];
  try {
    const protocolVersions = await Promise.all(
      entries.map(async (entry) => {
        const client = await connectSdkClient(entry);
        clients.push(client);
        const subscription = await listenLikeDiscovery(client);
        if (subscription) subscriptions.push(subscription);
        const [tools] = await Promise.all([
          client.listTools(),
          client.listPrompts(),
          client.listResources(),
          client.listResourceTemplates(),
        ]);
        if (tools.tools.length === 0) throw new Error('SDK discovery found no tools');
        return client.getNegotiatedProtocolVersion();
      }),
    );
    return { protocolVersions };
  } finally {
    await Promise.all(subscriptions.map((subscription) => subscription.close().catch(() => undefined)));
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  }
}
