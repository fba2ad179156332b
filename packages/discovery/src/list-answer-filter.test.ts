import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { judgeListAnswers, setAsideItems, type JudgedListResult } from './list-answer-filter.js';

/** A transport that records what is sent and lets the test deliver answers. */
function fakeTransport(): Transport & { sent: JSONRPCMessage[]; deliver: (message: JSONRPCMessage) => void } {
  const transport = {
    sent: [] as JSONRPCMessage[],
    onmessage: undefined as Transport['onmessage'],
    start: async () => undefined,
    close: async () => undefined,
    send: async (message: JSONRPCMessage) => {
      transport.sent.push(message);
    },
    deliver: (message: JSONRPCMessage) => transport.onmessage?.(message),
  };
  return transport;
}

function received(transport: Transport): JSONRPCMessage[] {
  const messages: JSONRPCMessage[] = [];
  transport.onmessage = (message) => messages.push(message);
  return messages;
}

const TOOLS = [
  { name: 'good', inputSchema: { type: 'object' } },
  { name: 'null-schema', inputSchema: null },
  { name: 'x-true', inputSchema: { properties: { x: true } } },
  { name: 'bad-dialect', inputSchema: { type: 'object', $schema: 42 } },
];

describe('judgeListAnswers', () => {
  it('takes the invalid items out of a list answer, sets them aside with reasons, and fills in an object type', async () => {
    const transport = fakeTransport();
    const messages = received(transport);
    judgeListAnswers(transport);
    await transport.send({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });
    transport.deliver({ jsonrpc: '2.0', id: 7, result: { tools: TOOLS, ttlMs: 0 } });
    expect(transport.sent).toHaveLength(1);
    const [answer] = messages;
    const result = (answer as { result: JudgedListResult }).result;
    expect(result['tools']).toEqual([
      { name: 'good', inputSchema: { type: 'object' } },
      { name: 'x-true', inputSchema: { type: 'object', properties: { x: true } } },
    ]);
    expect(result['ttlMs']).toBe(0);
    expect(setAsideItems({ ...result })).toEqual([
      { name: 'null-schema', named: true, reason: 'invalid tool definition: inputSchema: expected object, received null' },
      { name: 'bad-dialect', named: true, reason: 'invalid tool definition: inputSchema.$schema: expected string, received number' },
    ]);
  });

  it('leaves alone answers to other requests, valid lists, errors, and answers to lists it did not see sent', async () => {
    const transport = fakeTransport();
    const messages = received(transport);
    judgeListAnswers(transport);
    judgeListAnswers(transport);
    const call = { jsonrpc: '2.0' as const, id: 1, result: { tools: TOOLS } };
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } });
    transport.deliver(call);
    const valid = { jsonrpc: '2.0' as const, id: 2, result: { prompts: [{ name: 'greet' }] } };
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'prompts/list' });
    transport.deliver(valid);
    const failed = { jsonrpc: '2.0' as const, id: 3, error: { code: -32601, message: 'Method not found' } };
    await transport.send({ jsonrpc: '2.0', id: 3, method: 'resources/list' });
    transport.deliver(failed);
    const unknown = { jsonrpc: '2.0' as const, id: 4, result: { tools: TOOLS } };
    transport.deliver(unknown);
    // Answered once: a second answer with the same id is not judged again.
    const again = { jsonrpc: '2.0' as const, id: 2, result: { prompts: [{ arguments: 'x' }] } };
    transport.deliver(again);
    expect(messages).toEqual([call, valid, failed, unknown, again]);
    expect(messages[0]).toBe(call);
    expect(messages[1]).toBe(valid);
  });

  it('forgets a cancelled list request', async () => {
    const transport = fakeTransport();
    const messages = received(transport);
    judgeListAnswers(transport);
    await transport.send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    await transport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    const late = { jsonrpc: '2.0' as const, id: 5, result: { tools: TOOLS } };
    transport.deliver(late);
    expect(messages[0]).toBe(late);
  });

  it('keeps judging for a handler set after it was installed, and reports none when nothing was set', async () => {
    const transport = fakeTransport();
    judgeListAnswers(transport);
    expect(transport.onmessage).toBeUndefined();
    const messages = received(transport);
    await transport.send({ jsonrpc: '2.0', id: 'a', method: 'resources/list' });
    transport.deliver({ jsonrpc: '2.0', id: 'a', result: { resources: [{ uri: 'x://good', name: 'good' }, { name: 'no-uri' }] } });
    const result = (messages[0] as { result: JudgedListResult }).result;
    expect(result['resources']).toEqual([{ uri: 'x://good', name: 'good' }]);
    expect(setAsideItems(result).map((item) => item.name)).toEqual(['no-uri']);
    expect(setAsideItems({ resources: [] })).toEqual([]);
  });
});
