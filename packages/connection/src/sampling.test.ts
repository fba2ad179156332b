import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { SamplingRequest, UiHooks } from '@toolhost/contract';
import { createClientFeatures } from './create-client-features.js';
import { connectEverything, resultText } from './test-support.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function adapterRecording(seen: SamplingRequest[]) {
  return {
    provider: 'scripted',
    createMessage: async (request: SamplingRequest) => {
      seen.push(request);
      return { model: 'scripted-model', text: `echo of ${request.messages.length} message(s)`, stopReason: 'endTurn' };
    },
  };
}

async function connect(hooks: UiHooks | undefined, seen: SamplingRequest[]): Promise<Client> {
  const features = createClientFeatures({ serverName: 'everything', adapter: adapterRecording(seen), ...(hooks ? { hooks } : {}) });
  const client = await connectEverything(features.capabilities, (c) => features.attach(c));
  clients.push(client);
  return client;
}

describe('sampling against server-everything', () => {
  it('answers with the adapter after the hook approves', async () => {
    const seen: SamplingRequest[] = [];
    const asked: string[] = [];
    const client = await connect({ approveSampling: async (request) => (asked.push(request.serverName), { action: 'approve' }) }, seen);
    const result = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hello', maxTokens: 20 } });
    expect(asked).toEqual(['everything']);
    expect(seen[0]?.systemPrompt).toBe('You are a helpful test server.');
    expect(seen[0]?.maxTokens).toBe(20);
    expect(seen[0]?.messages[0]?.content).toEqual({ type: 'text', text: 'Resource trigger-sampling-request context: hello' });
    expect(resultText(result)).toContain('scripted-model');
    expect(resultText(result)).toContain('echo of 1 message(s)');
  });

  it('sends the edited request when the hook edits it', async () => {
    const seen: SamplingRequest[] = [];
    const client = await connect(
      { approveSampling: async ({ request }) => ({ action: 'edit', value: { ...request, maxTokens: 5, systemPrompt: 'be brief' } }) },
      seen,
    );
    await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'x' } });
    expect(seen[0]?.maxTokens).toBe(5);
    expect(seen[0]?.systemPrompt).toBe('be brief');
  });

  it('declines with the user reason when the hook denies', async () => {
    const seen: SamplingRequest[] = [];
    const client = await connect({ approveSampling: async () => ({ action: 'deny', reason: 'not now' }) }, seen);
    const result = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'x' } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("Sampling request from MCP server 'everything' declined: not now");
    expect(seen).toHaveLength(0);
  });

  it('declines with a clear error when there is no approval hook', async () => {
    const seen: SamplingRequest[] = [];
    const client = await connect(undefined, seen);
    const result = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'x' } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('no sampling approval hook');
    expect(seen).toHaveLength(0);
  });

  it('lets the result review hook replace the answer', async () => {
    const seen: SamplingRequest[] = [];
    const client = await connect(
      {
        approveSampling: async () => ({ action: 'approve' }),
        reviewSamplingResult: async ({ response }) => ({ action: 'edit', value: { ...response, text: 'redacted' } }),
      },
      seen,
    );
    const result = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'x' } });
    expect(resultText(result)).toContain('redacted');
  });

  it('does not declare sampling when the adapter cannot create messages', async () => {
    const features = createClientFeatures({ serverName: 'everything', adapter: { provider: 'none' } });
    expect(features.capabilities.sampling).toBeUndefined();
    const client = await connectEverything(features.capabilities, (c) => features.attach(c));
    clients.push(client);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).not.toContain('trigger-sampling-request');
  });
});
