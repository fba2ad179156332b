import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { DirectRequests } from './direct-requests.js';

// A client takes an answer to a direct request before the SDK's message handler only when
// `isAnswer` holds; everything else goes through the SDK's own checks, so the predicate must
// refuse every message the SDK would not take as a response to a direct request.
describe('DirectRequests.isAnswer', () => {
  const message = (value: unknown): JSONRPCMessage => value as JSONRPCMessage;

  it('takes a result or a well-formed error answering a direct request id', () => {
    expect(DirectRequests.isAnswer(message({ jsonrpc: '2.0', id: 'toolhost-3', result: { content: [] } }))).toBe(true);
    expect(DirectRequests.isAnswer(message({ jsonrpc: '2.0', id: 'toolhost-3', error: { code: -32602, message: 'bad' } }))).toBe(true);
  });

  it.each([
    ['an SDK request id', { jsonrpc: '2.0', id: 3, result: {} }],
    ['another string id', { jsonrpc: '2.0', id: 'other-3', result: {} }],
    ['a request reusing the id', { jsonrpc: '2.0', id: 'toolhost-3', method: 'ping', result: {} }],
    ['an array result', { jsonrpc: '2.0', id: 'toolhost-3', result: [] }],
    ['a null result', { jsonrpc: '2.0', id: 'toolhost-3', result: null }],
    ['both result and error', { jsonrpc: '2.0', id: 'toolhost-3', result: {}, error: { code: 1, message: 'x' } }],
    ['an error without a numeric code', { jsonrpc: '2.0', id: 'toolhost-3', error: { code: '1', message: 'x' } }],
    ['an error without a message', { jsonrpc: '2.0', id: 'toolhost-3', error: { code: 1 } }],
    ['neither result nor error', { jsonrpc: '2.0', id: 'toolhost-3' }],
  ])('leaves %s to the SDK', (_what, value) => {
    expect(DirectRequests.isAnswer(message(value))).toBe(false);
  });
});
