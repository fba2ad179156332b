// The request handlers called directly, for the refusals a real server rarely triggers.
import { describe, expect, it } from 'vitest';
import { createElicitationHandler } from './elicitation.js';
import { createSamplingHandler } from './sampling.js';

const extra = { signal: new AbortController().signal };

describe('createElicitationHandler', () => {
  it('declines a URL that is not http(s) without asking the user', async () => {
    let asked = false;
    const handler = createElicitationHandler({ serverName: 's', elicit: async () => ((asked = true), { action: 'accept' }) });
    const result = await handler(
      { method: 'elicitation/create', params: { mode: 'url', url: 'javascript:alert(1)', message: 'm', elicitationId: 'e' } },
      extra,
    );
    expect(result).toEqual({ action: 'decline' });
    expect(asked).toBe(false);
  });
});

describe('createSamplingHandler', () => {
  const adapter = { provider: 'p', createMessage: async () => ({ model: 'm', text: 't' }) };
  const approve = async () => ({ action: 'approve' as const });

  it('refuses sampling with tools (not offered by the host) with -32602', async () => {
    const handler = createSamplingHandler({ serverName: 's', adapter, approve });
    await expect(
      handler(
        {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'x' } }],
            maxTokens: 5,
            tools: [{ name: 't', inputSchema: { type: 'object' } }],
          },
        },
        extra,
      ),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('declines with -1 when the adapter cannot generate', async () => {
    const handler = createSamplingHandler({ serverName: 's', adapter: { provider: 'p' }, approve });
    await expect(handler({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } }, extra)).rejects.toMatchObject({
      code: -1,
      message: expect.stringContaining('cannot generate messages'),
    });
  });

  it('passes images to the adapter as inline data', async () => {
    const seen: unknown[] = [];
    const handler = createSamplingHandler({
      serverName: 's',
      adapter: { provider: 'p', createMessage: async (request) => (seen.push(request), { model: 'm', text: 'ok' }) },
      approve,
    });
    const result = await handler(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } }], maxTokens: 5 },
      },
      extra,
    );
    expect(seen[0]).toMatchObject({ messages: [{ role: 'user', content: { type: 'inlineData', mimeType: 'image/png', data: 'AAAA' } }] });
    expect(result).toEqual({ role: 'assistant', model: 'm', content: { type: 'text', text: 'ok' } });
  });
});
