import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientFeatures, type AttachedClientFeatures } from './create-client-features.js';
import type { ResourceUpdatedEvent } from './resource-subscriptions.js';
import { connectEverything, waitFor } from './test-support.js';

let client: Client;
let attached: AttachedClientFeatures;
const updates: ResourceUpdatedEvent[] = [];

beforeAll(async () => {
  const features = createClientFeatures({ serverName: 'everything', onResourceUpdated: (event) => updates.push(event) });
  client = await connectEverything(features.capabilities, (c) => {
    attached = features.attach(c);
  });
});
afterAll(async () => {
  await client.close();
});

describe('resources against server-everything', () => {
  it('subscribes and receives notifications/resources/updated', async () => {
    await attached.subscriptions.subscribe('demo://resource/dynamic/text/1');
    expect(attached.subscriptions.list()).toEqual(['demo://resource/dynamic/text/1']);
    await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await waitFor(() => updates.length > 0);
    expect(updates[0]).toEqual({ serverName: 'everything', uri: 'demo://resource/dynamic/text/1' });
    await client.callTool({ name: 'toggle-subscriber-updates', arguments: {} });
    await attached.subscriptions.unsubscribe('demo://resource/dynamic/text/1');
    expect(attached.subscriptions.list()).toEqual([]);
  });
});
