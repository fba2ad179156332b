// host.confirmations.check(): what the host would do with a call, decided without running it or
// asking anyone, against the basic fixture server over stdio.
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '@toolhost/contract';
import type { McpToolHostOptions } from './host-options.js';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer } from './test-support.js';
import type { ConfirmationCheck } from './tool-call/check-tool-call.js';

async function withHost(options: McpToolHostOptions, run: (host: McpToolHost, updates: ToolCall[], pending: string[]) => Promise<void>) {
  const host = await McpToolHost.create({ settings: { mcpServers: { basic: fixtureServer('basic') } }, ...options });
  const updates: ToolCall[] = [];
  const pending: string[] = [];
  host.on('tool-call-update', (call) => updates.push(call));
  host.on('confirmation-pending', (request) => pending.push(request.toolCallId));
  try {
    await host.discover();
    await run(host, updates, pending);
  } finally {
    await host.close();
  }
}

function errorOf(check: ConfirmationCheck): string {
  if (check.status !== 'denied') throw new Error(`expected denied, got ${check.status}`);
  return `${check.error.code}: ${check.error.message}`;
}

describe('host.confirmations.check', () => {
  it('says ask for a tool nobody approved, with the request the user would see, and emits nothing', async () => {
    await withHost({ deferConfirmations: true }, async (host, updates, pending) => {
      const check = await host.confirmations.check({ name: 'echo', arguments: { message: 'hi' }, toolCallId: 'call-7' });
      expect(check.status).toBe('ask');
      if (check.status !== 'ask') return;
      expect(check.request).toMatchObject({
        toolCallId: 'call-7',
        reason: 'not-approved',
        arguments: { message: 'hi' },
        mcpDetails: { serverName: 'basic', toolName: 'echo', registeredName: 'echo' },
      });
      expect(check.request.options.map((option) => option.id)).toEqual([
        'proceed_once',
        'proceed_always_tool',
        'proceed_always_server',
        'cancel',
      ]);
      // A check is no call: no update, nothing pending, no confirmation event.
      expect(updates).toEqual([]);
      expect(pending).toEqual([]);
      expect(host.confirmations.pending()).toEqual([]);
    });
  });

  it('says allowed once the user chose "always allow this tool", and ask again for another tool of the server', async () => {
    await withHost({ deferConfirmations: true }, async (host) => {
      host.on('confirmation-pending', (request) =>
        host.confirmations.answer({ toolCallId: request.toolCallId, optionId: 'proceed_always_tool' }),
      );
      const result = await host.callTool({ name: 'echo', arguments: { message: 'first' } });
      expect(result.isError).toBe(false);
      expect(await host.confirmations.check({ name: 'echo', arguments: { message: 'again' } })).toEqual({ status: 'allowed' });
      expect((await host.confirmations.check({ name: 'add', arguments: { a: 1, b: 2 } })).status).toBe('ask');
    });
  });

  it('says allowed for a trusted server, the configured allow-list and the host policy', async () => {
    const trusted = await McpToolHost.create({ settings: { mcpServers: { basic: fixtureServer('basic', { trust: true }) } } });
    try {
      await trusted.discover();
      expect(await trusted.confirmations.check({ name: 'echo', arguments: { message: 'x' } })).toEqual({ status: 'allowed' });
    } finally {
      await trusted.close();
    }
    await withHost({ deferConfirmations: true, allowList: ['basic.echo'] }, async (host) => {
      expect(await host.confirmations.check({ name: 'echo', arguments: { message: 'x' } })).toEqual({ status: 'allowed' });
      expect((await host.confirmations.check({ name: 'add', arguments: { a: 1, b: 2 } })).status).toBe('ask');
    });
    await withHost(
      { deferConfirmations: true, hostPolicy: (subject) => (subject.tool.name === 'add' ? 'allow' : undefined) },
      async (host) => {
        expect(await host.confirmations.check({ name: 'add', arguments: { a: 1, b: 2 } })).toEqual({ status: 'allowed' });
      },
    );
  });

  it('says denied, with the error the call would report, for an unknown tool, bad arguments, the host policy and a host that cannot ask', async () => {
    await withHost(
      { deferConfirmations: true, hostPolicy: (subject) => (subject.tool.name === 'fail' ? 'deny' : undefined) },
      async (host) => {
        expect(errorOf(await host.confirmations.check({ name: 'nope' }))).toMatch(
          /^TOOL_NOT_FOUND: Tool "nope" is not registered\. Available tools: .*echo/,
        );
        expect(errorOf(await host.confirmations.check({ name: 'echo', arguments: { message: 42 } }))).toMatch(
          /^INVALID_TOOL_ARGUMENTS: Invalid arguments for tool 'echo' \(MCP server 'basic'\)/,
        );
        expect(errorOf(await host.confirmations.check({ name: 'fail', arguments: {} }))).toBe(
          "DENIED_BY_POLICY: The host's policy does not allow tool 'fail' from MCP server 'basic'.",
        );
      },
    );
    // No confirm hook and no deferConfirmations: nobody to ask, as the call itself would find.
    await withHost({}, async (host) => {
      const check = await host.confirmations.check({ name: 'echo', arguments: { message: 'x' } });
      expect(errorOf(check)).toMatch(
        /^CONFIRMATION_REQUIRED: Tool 'echo' from MCP server 'basic' needs confirmation, but this host cannot ask/,
      );
      const result = await host.callTool({ name: 'echo', arguments: { message: 'x' } });
      expect(result.error?.code).toBe('CONFIRMATION_REQUIRED');
    });
  });

  it('throws CLOSED after close()', async () => {
    const host = await McpToolHost.create({ settings: { mcpServers: {} } });
    await host.close();
    expect(() => host.confirmations.check({ name: 'echo' })).toThrow(expect.objectContaining({ code: 'CLOSED' }));
  });
});
