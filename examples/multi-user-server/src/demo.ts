// The offline demo (--demo, `npm start`): the MCP reference server over stdio for every user, and a
// short tour through the API as two users, printed, so you can see per-user approvals at work.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { HostSettings } from '@toolhost/host';

const require = createRequire(import.meta.url);

/** The MCP servers of the offline demo: `mcp-server-everything` (the MCP reference server) over stdio, not trusted (its tools ask). */
export function demoSettings(): HostSettings {
  const everything = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
  return { mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'], timeout: 30_000 } } };
}

/** Two demo users with fresh random API keys, and an SQLite file in a new temporary folder. */
export function demoUsers(): { users: Record<string, string>; sqlitePath: string; keys: { alice: string; bob: string } } {
  const alice = `demo-alice-${randomBytes(12).toString('base64url')}`;
  const bob = `demo-bob-${randomBytes(12).toString('base64url')}`;
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-multi-user-demo-'));
  return { users: { [alice]: 'alice', [bob]: 'bob' }, sqlitePath: join(folder, 'toolhost-users.sqlite'), keys: { alice, bob } };
}

/** Run the tour against the server at `url` and print what happens. */
export async function runTour(url: string, keys: { alice: string; bob: string }, print: (line: string) => void): Promise<void> {
  const api = async (who: 'alice' | 'bob', method: string, path: string, body?: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${keys[who]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as Record<string, unknown>;
  };
  const summary = (answer: Record<string, unknown>): string => {
    if (answer['status'] === 'needs-confirmation') {
      const details = answer['details'] as { mcpDetails: { serverName: string; toolName: string }; options: Array<{ id: string }> };
      return `needs-confirmation (${details.mcpDetails.serverName} › ${details.mcpDetails.toolName}; options: ${details.options.map((o) => o.id).join(', ')})`;
    }
    if (answer['status'] === 'completed') {
      const text = (answer['content'] as Array<{ type: string; text?: string }>).map((part) => part.text ?? `[${part.type}]`).join(' ');
      return `completed: ${text.replace(/\s+/g, ' ').slice(0, 80)}`;
    }
    if (answer['status'] === 'cancelled') return 'cancelled';
    return JSON.stringify(answer).slice(0, 120);
  };
  const echo = { name: 'echo', arguments: { message: 'hello from the tour' } };

  print('Tour (offline): two users, one server process, each with their own approvals.');
  const tools = (await api('alice', 'GET', '/tools'))['tools'] as unknown[];
  print(`  alice  GET  /tools                        → ${tools.length} tools`);
  const first = await api('alice', 'POST', '/tools/call', echo);
  print(`  alice  POST /tools/call echo              → ${summary(first)}`);
  const decided = await api('alice', 'POST', `/confirmations/${String(first['toolCallId'])}`, { outcome: 'proceed_always' });
  print(`  alice  POST /confirmations/… always       → ${summary(decided)}`);
  print(`  alice  POST /tools/call echo              → ${summary(await api('alice', 'POST', '/tools/call', echo))}`);
  const bobs = await api('bob', 'POST', '/tools/call', echo);
  print(`  bob    POST /tools/call echo              → ${summary(bobs)}`);
  const cancelled = await api('bob', 'POST', `/confirmations/${String(bobs['toolCallId'])}`, { outcome: 'cancel' });
  print(`  bob    POST /confirmations/… cancel       → ${summary(cancelled)}`);
}
