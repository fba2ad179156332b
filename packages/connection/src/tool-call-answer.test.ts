// The cheap check of a `tools/call` answer: only plain text passes without the full schema.
import { describe, expect, it } from 'vitest';
import { isPlainTextToolResult } from './tool-call-answer.js';

describe('isPlainTextToolResult', () => {
  it('takes only text blocks of exactly { type, text } with at most isError and resultType beside them', () => {
    expect(isPlainTextToolResult({ content: [{ type: 'text', text: 'a' }] })).toBe(true);
    expect(isPlainTextToolResult({ content: [], isError: true, resultType: 'complete' })).toBe(true);
    for (const answer of [
      null,
      [],
      'text',
      {},
      { content: 'a' },
      { content: [{ type: 'text', text: 5 }] },
      { content: [{ type: 'text' }] },
      { content: [{ type: 'text', text: 'a', annotations: { priority: 9 } }] },
      { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
      { content: [null] },
      { content: [], isError: 'yes' },
      { content: [], resultType: 'input_required' },
      { content: [], structuredContent: { a: 1 } },
      { content: [], _meta: {} },
      JSON.parse('{"content":[],"__proto__":{"polluted":true}}'),
    ]) {
      expect(isPlainTextToolResult(answer), JSON.stringify(answer)).toBe(false);
    }
  });
});
