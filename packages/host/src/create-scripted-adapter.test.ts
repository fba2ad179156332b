import { describe, expect, it } from 'vitest';
import { createScriptedAdapter } from './create-scripted-adapter.js';

describe('createScriptedAdapter', () => {
  it('plays back turns in order and throws when they run out', () => {
    const adapter = createScriptedAdapter({ turns: [{ text: 'one' }] });
    adapter.push({ toolCalls: [{ id: 'c1', name: 'echo', arguments: { message: 'hi' } }] });
    expect(adapter.remainingTurns).toBe(2);
    expect(adapter.nextTurn().text).toBe('one');
    const turn = adapter.nextTurn();
    expect(adapter.getToolCalls(turn, { tools: new Map() })).toEqual([{ id: 'c1', name: 'echo', arguments: { message: 'hi' } }]);
    expect(() => adapter.nextTurn()).toThrow(/no turns left/);
  });

  it('records tools and results it was given', () => {
    const adapter = createScriptedAdapter();
    const declarations = adapter.toTools([
      { name: 'echo', serverName: 's', originalName: 'echo', description: 'Echo', inputSchema: { type: 'object' } },
    ]);
    expect(declarations).toEqual([{ name: 'echo', description: 'Echo', parameters: { type: 'object' } }]);
    const outcome = { call: { name: 'echo', arguments: {} }, parts: [{ type: 'text' as const, text: 'x' }], isError: false };
    expect(adapter.toToolResults([outcome]).outcomes).toEqual([outcome]);
    expect(adapter.history.tools).toHaveLength(1);
    expect(adapter.history.toolResults[0]).toEqual([outcome]);
    expect(adapter.createMessage).toBeUndefined();
  });

  it('sanitises schemas with its profile', () => {
    const adapter = createScriptedAdapter({ schemaProfile: 'gemini' });
    const [declaration] = adapter.toTools([
      {
        name: 't',
        serverName: 's',
        originalName: 't',
        description: '',
        inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', additionalProperties: false },
      },
    ]);
    expect(declaration?.parameters).not.toHaveProperty('$schema');
    expect(declaration?.parameters).not.toHaveProperty('additionalProperties');
  });

  it('answers sampling only when given a responder', async () => {
    const adapter = createScriptedAdapter({ sampling: (request) => `echo: ${request.maxTokens}` });
    const response = await adapter.createMessage?.({ messages: [], maxTokens: 7 }, {});
    expect(response).toEqual({ model: 'scripted', stopReason: 'endTurn', text: 'echo: 7' });
    expect(adapter.history.samplingRequests).toHaveLength(1);
  });
});
