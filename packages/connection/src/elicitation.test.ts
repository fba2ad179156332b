import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { createClientFeatures } from './create-client-features.js';
import type { ElicitationRequest, FormElicitationRequest } from '@toolhost/contract';
import type { ElicitationHook } from './elicitation.js';
import { connectEverything, resultText } from './test-support.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function connect(elicit: ElicitationHook | undefined): Promise<Client> {
  const features = createClientFeatures({ serverName: 'everything', ...(elicit ? { hooks: { elicit } } : {}) });
  const client = await connectEverything(features.capabilities, (c) => features.attach(c));
  clients.push(client);
  return client;
}

function rawResult(text: string): Record<string, unknown> {
  return JSON.parse(text.slice(text.indexOf('Raw result:') + 'Raw result:'.length)) as Record<string, unknown>;
}

describe('form elicitation against server-everything', () => {
  it('shows SEP-1330 enum fields with defaults and fills omitted defaults (SEP-1034)', async () => {
    const asked: ElicitationRequest[] = [];
    const client = await connect(async (request) => {
      asked.push(request);
      return { action: 'accept', content: { name: 'Ada', integer: 7 } };
    });
    const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    const request = asked[0] as FormElicitationRequest;
    expect(request.mode).toBe('form');
    expect(request.serverName).toBe('everything');
    const byName = new Map(request.fields.map((field) => [field.name, field]));
    expect(byName.get('name')).toMatchObject({ kind: 'string', required: true });
    expect(byName.get('titledSingleSelectEnum')).toMatchObject({
      kind: 'single-select',
      default: 'hero-1',
      options: [
        { value: 'hero-1', label: 'Superman' },
        { value: 'hero-2', label: 'Green Lantern' },
        { value: 'hero-3', label: 'Wonder Woman' },
      ],
    });
    expect(byName.get('untitledMultipleSelectEnum')).toMatchObject({ kind: 'multi-select', minItems: 1, maxItems: 3 });
    expect(byName.get('titledMultipleSelectEnum')?.options?.[1]).toEqual({ value: 'fish-2', label: 'Salmon' });
    expect(byName.get('legacyTitledEnum')?.options?.[0]).toEqual({ value: 'pet-1', label: 'Cats' });
    expect(byName.get('email')).toMatchObject({ kind: 'string', format: 'email' });
    expect(request.defaults).toMatchObject({ firstLine: 'It was a dark and stormy night.', integer: 42, number: 3.14 });

    const raw = rawResult(resultText(result));
    expect(raw.action).toBe('accept');
    expect(raw.content).toMatchObject({
      name: 'Ada',
      integer: 7,
      number: 3.14,
      firstLine: 'It was a dark and stormy night.',
      titledSingleSelectEnum: 'hero-1',
      untitledMultipleSelectEnum: ['Guitar'],
    });
  });

  it('answers cancel when the host has no elicit hook', async () => {
    const client = await connect(undefined);
    const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(rawResult(resultText(result))).toEqual({ action: 'cancel' });
  });

  it('passes decline through', async () => {
    const client = await connect(async () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    expect(rawResult(resultText(result))).toEqual({ action: 'decline' });
  });
});

describe('URL elicitation against server-everything', () => {
  it('shows the URL and its domain, and returns the action', async () => {
    const asked: ElicitationRequest[] = [];
    const client = await connect(async (request) => (asked.push(request), { action: 'accept' }));
    const result = await client.callTool({
      name: 'trigger-url-elicitation',
      arguments: { url: 'https://auth.example.com/start?x=1', elicitationId: 'e-1' },
    });
    expect(asked[0]).toMatchObject({
      mode: 'url',
      domain: 'auth.example.com',
      elicitationId: 'e-1',
      url: 'https://auth.example.com/start?x=1',
    });
    expect(resultText(result)).toContain('User completed the URL elicitation flow');
  });
});
