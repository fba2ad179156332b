import { describe, expect, it } from 'vitest';
import { AdapterError, type HostToolDefinition } from '@toolhost/contract';
import { createOpenAIChatAdapter } from './create-openai-chat-adapter.js';
import { createOpenAIResponsesAdapter } from './create-openai-responses-adapter.js';
import { OPENAI_STRICT_SCHEMA_LIMITS, OPENAI_VENDOR_LIMITS } from './openai-vendor-limits.js';

function tool(name: string, extra: Partial<HostToolDefinition> = {}): HostToolDefinition {
  return {
    name,
    serverName: 'github',
    originalName: name,
    description: `Tool ${name}.`,
    inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
    ...extra,
  };
}

const tools = (count: number): HostToolDefinition[] => Array.from({ length: count }, (_, i) => tool(`tool_${i + 1}`));

function caught(run: () => unknown): AdapterError {
  try {
    run();
  } catch (error) {
    if (AdapterError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an AdapterError');
}

/** An object schema nested `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object', properties: { leaf: { type: 'string' } } };
  for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { child: schema } };
  return schema;
}

const adapters = [
  ['Chat Completions', createOpenAIChatAdapter],
  ['Responses', createOpenAIResponsesAdapter],
] as const;

describe.each(adapters)('OpenAI %s adapter limits', (_, create) => {
  it("states OpenAI's limits, strict mode's schema limits, and the context window it was given", () => {
    expect(create().limits).toEqual({ ...OPENAI_VENDOR_LIMITS, ...OPENAI_STRICT_SCHEMA_LIMITS });
    expect(create({ strict: false }).limits).toEqual({ maxTools: 128 });
    expect(create({ contextWindowTokens: 400_000 }).contextWindowTokens).toBe(400_000);
    expect(create().nativeToolSearch).toBe(false);
  });

  it('refuses 129 tools before anything is sent, naming the limit, the count and tool search; declares 128', () => {
    const error = caught(() => create().toTools(tools(129)));
    expect(error).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', provider: 'openai', limit: 'maxTools' });
    expect(error.message).toContain('OpenAI accepts at most 128 tools in one request (limit maxTools); this one would declare 129');
    expect(error.message).toContain("McpToolHost.create({ toolSearch: 'auto' })");
    expect(create().toTools(tools(128))).toHaveLength(128);
  });

  it('refuses a 70-character name and one with a dot', () => {
    const long = 'a'.repeat(70);
    expect(caught(() => create().toTools([tool(long)]))).toMatchObject({ limit: 'toolNames', toolName: long });
    expect(caught(() => create().toTools([tool('files.read')])).message).toContain(
      "Tool name 'files.read' has characters OpenAI does not accept",
    );
  });

  it('shortens a huge description to the limit a compatible server sets, and sends it whole by default', () => {
    const description = `Search issues. ${'Explains every filter in detail. '.repeat(100_000)}`;
    const shortened = JSON.stringify(create({ limits: { maxDescriptionLength: 1024 } }).toTools([tool('search', { description })]));
    const text = /"description":"((?:[^"\\]|\\.)*)"/.exec(shortened)?.[1] ?? '';
    expect(text.length).toBeLessThanOrEqual(1024);
    expect(text).toMatch(
      /^Search issues\. Explains every filter in detail\..* \[…\d+ more characters cut to fit OpenAI's limit of 1024\]$/,
    );
    expect(JSON.stringify(create().toTools([tool('search', { description })]))).toContain(description);
  });

  it("refuses a schema over strict mode's limits, saying strict: false takes it; strict: false does", () => {
    const wide = {
      type: 'object',
      properties: Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`field_${i}`, { type: 'string' }])),
    };
    const error = caught(() => create().toTools([tool('wide', { inputSchema: wide })]));
    expect(error).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', limit: 'maxSchemaProperties', toolName: 'wide' });
    expect(error.message).toContain("The input schema of tool 'wide' has 5001 object properties; OpenAI accepts at most 5000");
    expect(error.message).toContain('strict: false');
    expect(caught(() => create().toTools([tool('deep', { inputSchema: nested(11) })]))).toMatchObject({ limit: 'maxSchemaDepth' });
    expect(create().toTools([tool('deep', { inputSchema: nested(10) })])).toHaveLength(1);
    expect(
      create({ strict: false }).toTools([tool('wide', { inputSchema: wide }), tool('deep', { inputSchema: nested(40) })]),
    ).toHaveLength(2);
  });

  it('refuses deferred tools without native tool search, and options that are not positive integers', () => {
    expect(caught(() => create().toTools([tool('a', { deferLoading: true })]))).toMatchObject({ code: 'INVALID_OPTIONS', toolName: 'a' });
    expect(caught(() => create({ limits: { maxTools: 1.5 } }))).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect(caught(() => create({ contextWindowTokens: 0 }))).toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('OpenAI Responses adapter native tool search', () => {
  it('puts deferred tools, defer_loading, into one namespace per server and adds tool_search last', () => {
    const adapter = createOpenAIResponsesAdapter({ toolSearch: 'native', strict: false });
    expect(adapter.nativeToolSearch).toBe(true);
    const declared = adapter.toTools([
      tool('echo', { serverName: 'basic' }),
      tool('create_issue', { deferLoading: true }),
      tool('list_repos', { deferLoading: true }),
      tool('send_message', { serverName: 'slack.work', deferLoading: true }),
    ]);
    expect(declared.map((entry) => entry.type)).toEqual(['function', 'namespace', 'namespace', 'tool_search']);
    expect(declared[0]).toMatchObject({ type: 'function', name: 'echo' });
    expect(declared[0]).not.toHaveProperty('defer_loading');
    expect(declared[1]).toEqual({
      type: 'namespace',
      name: 'github',
      description: "Tools of the MCP server 'github' (2): create_issue, list_repos.",
      tools: [
        {
          type: 'function',
          name: 'create_issue',
          description: 'Tool create_issue.',
          parameters: tool('x').inputSchema,
          strict: false,
          defer_loading: true,
        },
        {
          type: 'function',
          name: 'list_repos',
          description: 'Tool list_repos.',
          parameters: tool('x').inputSchema,
          strict: false,
          defer_loading: true,
        },
      ],
    });
    expect(declared[2]).toMatchObject({ type: 'namespace', name: 'slack_work', tools: [{ name: 'send_message', defer_loading: true }] });
    expect(declared[3]).toEqual({ type: 'tool_search' });
    expect(adapter.toTools([tool('echo')])).toEqual(createOpenAIResponsesAdapter({ strict: false }).toTools([tool('echo')]));
  });

  it('counts namespaces and tool_search, not the functions inside, against the 128 entries of tools', () => {
    const adapter = createOpenAIResponsesAdapter({ toolSearch: 'native' });
    const deferred = Array.from({ length: 300 }, (_, i) => tool(`deferred_${i}`, { serverName: `server${i % 3}`, deferLoading: true }));
    expect(adapter.toTools([...tools(124), ...deferred])).toHaveLength(128);
    expect(caught(() => adapter.toTools([...tools(125), ...deferred]))).toMatchObject({ limit: 'maxTools' });
  });

  it("gives a namespace another name when a tool has the server's name", () => {
    const declared = createOpenAIResponsesAdapter({ toolSearch: 'native' }).toTools([
      tool('github'),
      tool('create_issue', { deferLoading: true }),
    ]);
    expect(declared[1]).toMatchObject({ type: 'namespace', name: 'github_tools' });
  });
});
