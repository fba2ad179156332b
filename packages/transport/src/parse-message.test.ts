import { deserializeMessage } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { isPlainResultResponse, parseMessageLine } from './parse-message.js';

describe('parseMessageLine', () => {
  it('takes a plain result response as parsed, equal to what the SDK schema gives', () => {
    for (const line of [
      '{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"hi"}]}}',
      '{"result":{},"id":"abc","jsonrpc":"2.0"}',
    ]) {
      expect(isPlainResultResponse(JSON.parse(line))).toBe(true);
      expect(parseMessageLine(line)).toEqual(deserializeMessage(line));
    }
  });

  it('sends every other message through the full schema: valid ones parsed, malformed ones refused', () => {
    const valid = [
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"nope"}}',
      '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":2}}',
      '{"jsonrpc":"2.0","id":2,"method":"ping"}',
      '{"jsonrpc":"2.0","id":3,"result":{"_meta":{"a":1},"content":[]}}',
    ];
    for (const line of valid) {
      expect(isPlainResultResponse(JSON.parse(line))).toBe(false);
      expect(parseMessageLine(line)).toEqual(deserializeMessage(line));
    }
    const malformed = [
      '{"jsonrpc":"2.0","id":1,"result":5}',
      '{"jsonrpc":"2.0","id":1,"result":[1]}',
      '{"jsonrpc":"2.0","id":1.5,"result":{}}',
      '{"jsonrpc":"1.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","id":1,"result":{},"extra":true}',
      '{"jsonrpc":"2.0","id":null,"result":{}}',
      '[{"jsonrpc":"2.0","id":1,"result":{}}]',
    ];
    for (const line of malformed) {
      expect(() => parseMessageLine(line), line).toThrow();
      expect(() => deserializeMessage(line), line).toThrow();
    }
    expect(() => parseMessageLine('not json')).toThrow(SyntaxError);
  });
});
