import { InMemoryAllowListStore } from '@toolhost/confirmation';
import { describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import type { McpToolHostOptions } from './host-options.js';
import type { ConfirmationOutcome, ConfirmationRequest, ToolCall } from '@toolhost/contract';
import { fixtureServer } from './test-support.js';

async function withHost(
  options: McpToolHostOptions & { answers?: ConfirmationOutcome[] },
  run: (host: McpToolHost, asked: ConfirmationRequest[], updates: ToolCall[]) => Promise<void>,
): Promise<void> {
  const asked: ConfirmationRequest[] = [];
  const updates: ToolCall[] = [];
  const answers = options.answers;
  const host = await McpToolHost.create({
    settings: { mcpServers: { basic: fixtureServer('basic') } },
    ...options,
    ...(answers
      ? {
          ui: {
            confirm: async (request) => {
              asked.push(request);
              return answers.shift() ?? 'cancel';
            },
          },
        }
      : {}),
  });
  host.on('tool-call-update', (call) => updates.push(call));
  try {
    await host.discover();
    await run(host, asked, updates);
  } finally {
    await host.close();
  }
}

describe('confirmation through McpToolHost', () => {
  it('rejects invalid arguments before asking anyone, and never calls the server', async () => {
    await withHost({ answers: ['proceed_once'] }, async (host, asked, updates) => {
      const result = await host.callTool({ name: 'add', arguments: { a: 'one', b: 2 } });
      expect(result.error?.code).toBe('INVALID_TOOL_ARGUMENTS');
      const text = result.parts[0]?.type === 'text' ? result.parts[0].text : '';
      expect(text).toMatch(/Invalid arguments for tool 'add' \(MCP server '[^']+'\): params\/a must be number/);
      expect(text.match(/was not called/g)).toHaveLength(1);
      expect(asked).toHaveLength(0);
      expect(updates.map((u) => u.status)).toEqual(['PENDING', 'FAILED']);
    });
  });

  it('denies by default without a confirm hook, saying how to allow the tool', async () => {
    await withHost({}, async (host, _asked, updates) => {
      const result = await host.callTool({ name: 'echo', arguments: { message: 'hi' } });
      expect(result.error?.code).toBe('CONFIRMATION_REQUIRED');
      expect(result.error?.message).toContain('"trust": true');
      expect(result.error?.message).toContain('basic.echo');
      expect(updates.map((u) => u.status)).toEqual(['PENDING', 'CANCELLED']);
      expect(updates[0]?.confirmationRequest?.mcpDetails.toolName).toBe('echo');
    });
  });

  it('remembers "always allow this tool" across a restart through the approval store', async () => {
    const approvals = new InMemoryAllowListStore();
    await withHost({ answers: ['proceed_always_tool', 'proceed_once'], stores: { approvals } }, async (host, asked) => {
      expect((await host.callTool({ name: 'echo', arguments: { message: 'one' } })).isError).toBe(false);
      expect((await host.callTool({ name: 'echo', arguments: { message: 'two' } })).isError).toBe(false);
      expect((await host.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).isError).toBe(false);
      expect(asked.map((request) => request.mcpDetails.toolName)).toEqual(['echo', 'add']);
      expect(asked[0]?.reason).toBe('not-approved');
    });
    await withHost({ answers: [], stores: { approvals } }, async (host, asked) => {
      expect((await host.callTool({ name: 'echo', arguments: { message: 'after restart' } })).isError).toBe(false);
      expect(asked).toHaveLength(0);
    });
  });

  it('asks again when the server behind an approved name changes', async () => {
    const approvals = new InMemoryAllowListStore();
    await withHost({ answers: ['proceed_always_tool'], stores: { approvals } }, async (host) => {
      expect((await host.callTool({ name: 'echo', arguments: { message: 'x' } })).isError).toBe(false);
    });
    await withHost(
      { answers: ['cancel'], stores: { approvals }, settings: { mcpServers: { basic: fixtureServer('list-changed') } } },
      async (host, asked) => {
        const result = await host.callTool({ name: 'echo', arguments: { message: 'x' } });
        expect(result.error?.code).toBe('TOOL_CALL_DENIED');
        expect(asked[0]?.reason).toBe('server-changed');
      },
    );
  });

  it('"always allow this server" covers the server\u2019s other tools', async () => {
    await withHost({ answers: ['proceed_always_server'] }, async (host, asked) => {
      expect((await host.callTool({ name: 'echo', arguments: { message: 'x' } })).isError).toBe(false);
      expect((await host.callTool({ name: 'add', arguments: { a: 1, b: 1 } })).isError).toBe(false);
      expect(asked).toHaveLength(1);
    });
  });

  it('honours a configured allow-list and a host policy', async () => {
    await withHost({ answers: [], allowList: ['basic.echo'] }, async (host, asked) => {
      expect((await host.callTool({ name: 'echo', arguments: { message: 'x' } })).isError).toBe(false);
      expect(asked).toHaveLength(0);
    });
    await withHost(
      { answers: ['proceed_once'], hostPolicy: (subject) => (subject.tool.name === 'env' ? 'deny' : undefined) },
      async (host, asked) => {
        const result = await host.callTool({ name: 'env', arguments: {} });
        expect(result.error?.code).toBe('DENIED_BY_POLICY');
        expect(result.toolCall.status).toBe('CANCELLED');
        expect(asked).toHaveLength(0);
      },
    );
  });

  it('reports a broken approval store as a failed call instead of throwing', async () => {
    const broken = {
      read: async () => {
        throw new Error('disk on fire');
      },
      write: async () => undefined,
    };
    await withHost({ answers: ['proceed_once'], stores: { approvals: broken } }, async (host, asked) => {
      const result = await host.callTool({ name: 'echo', arguments: { message: 'x' } });
      expect(result.error?.code).toBe('STORE_FAILED');
      expect(result.error?.message).toContain('disk on fire');
      expect(result.toolCall.status).toBe('FAILED');
      expect(asked).toHaveLength(0);
    });
  });

  it('runs the call when the confirm hook answers with one of the offered option objects', async () => {
    const host = await McpToolHost.create({
      settings: { mcpServers: { basic: fixtureServer('basic') } },
      ui: { confirm: async (request) => request.options.find((option) => option.id === 'proceed_once') ?? 'cancel' },
    });
    try {
      await host.discover();
      const result = await host.callTool({ name: 'echo', arguments: { message: 'by option object' } });
      expect(result.error).toBeUndefined();
      expect(result.parts).toEqual([{ type: 'text', text: 'by option object' }]);
    } finally {
      await host.close();
    }
  });

  it('an answer that is not an offered option fails the call naming the accepted values, never a silent "no"', async () => {
    const answers: unknown[] = ['yes', { id: 'allow' }, 'Allow once'];
    const host = await McpToolHost.create({
      settings: { mcpServers: { basic: fixtureServer('basic') } },
      // A hook written against an untyped UI: the types would refuse these answers.
      ui: { confirm: async () => answers.shift() as ConfirmationOutcome },
    });
    try {
      await host.discover();
      for (let attempt = 0; attempt < 3; attempt++) {
        const result = await host.callTool({ name: 'echo', arguments: { message: 'x' } });
        expect(result.error?.code).toBe('INVALID_CONFIRMATION_ANSWER');
        expect(result.error?.message).toContain("'proceed_once', 'proceed_always_tool', 'proceed_always_server', 'cancel'");
        expect(result.toolCall.status).toBe('FAILED');
      }
    } finally {
      await host.close();
    }
  });

  it('a confirm hook that throws fails the call with CONFIRMATION_FAILED and its error as the cause', async () => {
    const broken = new Error('dialog crashed');
    const host = await McpToolHost.create({
      settings: { mcpServers: { basic: fixtureServer('basic') } },
      ui: {
        confirm: async () => {
          throw broken;
        },
      },
    });
    try {
      await host.discover();
      const result = await host.callTool({ name: 'echo', arguments: { message: 'x' } });
      expect(result.error?.code).toBe('CONFIRMATION_FAILED');
      expect(result.error?.cause).toBe(broken);
      expect(result.error?.message).toContain('dialog crashed');
    } finally {
      await host.close();
    }
  });
});
