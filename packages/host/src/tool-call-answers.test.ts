// The check of a `tools/call` answer: the host sends the call with its own result schema (plain
// text accepted as it is, everything else through the negotiated revision's full check), so a
// malformed answer must still fail the call, naming the server, and a rich one must still pass.
// Through McpToolHost against the `malformed` stdio fixture, whose calls answer `arguments.answer`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer } from './test-support.js';

describe.each([
  ['2025-11-25', 'legacy'],
  ['2026-07-28', 'modern'],
])('tools/call answers on MCP %s', (revision, era) => {
  let host: McpToolHost;
  let echoName: string;

  beforeAll(async () => {
    // 2026-07-28 pinned: in auto mode a stdio server that has not answered the version probe within
    // 5 s counts as a 2025-era one, and a busy machine can take that long to start it.
    const entry = fixtureServer('malformed', {
      trust: true,
      timeout: 60_000,
      ...(era === 'modern' ? { protocolVersion: '2026-07-28' as const } : {}),
    });
    host = await McpToolHost.create({
      settings: { mcpServers: { shady: { ...entry, args: [...(entry.args ?? []), `--era=${era}`] } } },
    });
    await host.discover();
    expect(host.servers.status().servers[0]?.protocolVersion).toBe(revision);
    echoName = host.servers.listTools().find((tool) => tool.originalName === 'echo')!.name;
  });

  afterAll(async () => {
    await host.close();
  });

  const call = (answer: unknown) => host.callTool({ name: echoName, arguments: { answer } });

  it('passes a plain text answer through', async () => {
    const result = await call({ content: [{ type: 'text', text: 'plain' }] });
    expect(result.isError, result.display).toBe(false);
    expect(result.parts).toEqual([{ type: 'text', text: 'plain' }]);
  });

  it('fails the call on a malformed answer, naming the server, whichever path checked it', async () => {
    for (const [answer, problem] of [
      [{ content: [{ type: 'text', text: 5 }] }, /expected string, received number/],
      [{ content: 'not a list' }, /expected array, received string/],
      [{ content: [{ type: 'text', text: 'a' }], isError: 'yes' }, /expected boolean, received string/],
      [{ content: [{ type: 'image', data: '***not base64***', mimeType: 'image/png' }] }, /Invalid Base64 string/],
    ] as const) {
      const result = await call(answer);
      expect(result.isError, JSON.stringify(answer)).toBe(true);
      expect(result.error?.message, JSON.stringify(answer)).toMatch(
        /^Tool "echo" of MCP server "shady" failed: Invalid tools\/call result/,
      );
      expect(result.error?.message, JSON.stringify(answer)).toMatch(problem);
    }
  });

  it('checks a rich answer in full and keeps it: text, image and structured content', async () => {
    const result = await call({
      content: [
        { type: 'text', text: 'rich', extra: 'dropped' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
      structuredContent: { answer: 42 },
    });
    expect(result.isError, result.display).toBe(false);
    expect(result.parts[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^rich\n/) });
    expect(result.parts[1]).toEqual({ type: 'inlineData', mimeType: 'image/png', data: 'iVBORw0KGgo=', source: 'image' });
    expect(result.structuredContent).toEqual({ answer: 42 });
  });
});
