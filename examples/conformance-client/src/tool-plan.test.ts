import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_ECHO_TOOL, planToolCalls, withoutNullOptionals, type PlannableTool } from './tool-plan.js';

const tool = (name: string, inputSchema: Record<string, unknown> = { type: 'object' }): PlannableTool => ({
  name: `registered_${name}`,
  originalName: name,
  inputSchema,
});

describe('planToolCalls', () => {
  it('makes exactly the calls of the context, in order, by registered name', () => {
    const tools = [tool('a'), tool('b', { type: 'object', properties: { x: { type: 'string' }, y: { type: 'string' } }, required: ['x'] })];
    const plan = planToolCalls(tools, { toolCalls: [{ name: 'b', arguments: { x: '1', y: null } }, { name: 'a' }] });
    expect(plan).toEqual([
      { name: 'registered_b', originalName: 'b', arguments: { x: '1' } },
      { name: 'registered_a', originalName: 'a', arguments: {} },
    ]);
  });

  it('refuses a context call to a tool the host does not offer, naming it and what is offered', () => {
    expect(() => planToolCalls([tool('a')], { toolCalls: [{ name: 'missing' }] })).toThrow(
      'the scenario asks for a call to tool "missing", which the host does not offer (offered: a)',
    );
    expect(() => planToolCalls([tool('a')], { toolCalls: [{ arguments: {} }] })).toThrow(
      'MCP_CONFORMANCE_CONTEXT.toolCalls[0] has no tool name',
    );
  });

  it('echoes every other tool input schema through the JSON Schema echo tool', () => {
    const schema = { type: 'object', $defs: { n: { type: 'integer' } }, properties: { n: { $ref: '#/$defs/n' } } };
    const plan = planToolCalls([tool(JSON_SCHEMA_ECHO_TOOL), tool('typed', schema)]);
    expect(plan).toEqual([{ name: `registered_${JSON_SCHEMA_ECHO_TOOL}`, originalName: JSON_SCHEMA_ECHO_TOOL, arguments: { schema } }]);
  });

  it('otherwise calls every tool once with arguments from its schema', () => {
    const plan = planToolCalls([tool('a', { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] }), tool('b')]);
    expect(plan.map((call) => call.originalName)).toEqual(['a', 'b']);
    expect(typeof plan[0]?.arguments.s).toBe('string');
  });
});

describe('withoutNullOptionals', () => {
  it('drops nulls only for optional properties that do not admit null', () => {
    const schema = {
      type: 'object',
      properties: { req: { type: 'string' }, opt: { type: 'string' }, nullable: { type: ['string', 'null'] }, any: {} },
      required: ['req'],
    };
    expect(withoutNullOptionals({ req: null, opt: null, nullable: null, any: null, other: 1 }, schema)).toEqual({
      req: null,
      nullable: null,
      any: null,
      other: 1,
    });
  });
});
