import { createScriptedAdapter } from '@toolhost/host/testing';
import { describe, expect, it } from 'vitest';
import { createFixtureHost } from './create-fixture-host.js';
import { isPng } from './is-png.js';

describe('createFixtureHost', () => {
  it('discovers the basic fixture and records each confirmation, allowing the call once', async () => {
    const adapter = createScriptedAdapter({ turns: [{ toolCalls: [{ id: 'c1', name: 'mixed-content', arguments: {} }] }] });
    const { host, confirmations } = await createFixtureHost(adapter);
    try {
      expect(host.servers.listTools().map((tool) => tool.name)).toContain('mixed-content');
      const handled = await host.handleModelResponse(adapter.nextTurn());
      expect(confirmations.map((request) => request.mcpDetails.toolName)).toEqual(['mixed-content']);
      expect(handled.outcomes[0]?.isError).toBe(false);
      const image = handled.outcomes[0]?.parts.find((part) => part.type === 'inlineData' && part.mimeType === 'image/png');
      expect(image?.type === 'inlineData' && isPng(image.data)).toBe(true);
    } finally {
      await host.close();
    }
  });
});

describe('isPng', () => {
  it('tells PNG data from other data', () => {
    expect(isPng(Buffer.from('89504e470d0a1a0a0000', 'hex').toString('base64'))).toBe(true);
    expect(isPng(Buffer.from('GIF89a').toString('base64'))).toBe(false);
  });
});
