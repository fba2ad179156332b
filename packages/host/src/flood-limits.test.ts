// Hardening: floods. A hostile stdio server (a raw JSON-RPC script in a temp file) that fires
// 1,000 elicitations, or 10,000 progress notifications, from inside one tool call.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import { sampleProcess } from '@toolhost-internal/fixtures';
import { textOf } from './test-support.js';

const folder = mkdtempSync(join(tmpdir(), 'toolhost-flood-'));
const FLOOD_SERVER = join(folder, 'flood-server.mjs');
writeFileSync(
  FLOOD_SERVER,
  `import { createInterface } from 'node:readline';
const send = (message) => process.stdout.write(JSON.stringify(message) + '\\n');
const waiting = new Map();
let next = 0;
const request = (method, params) => new Promise((resolve) => {
  const id = 'srv-' + (next += 1);
  waiting.set(id, resolve);
  send({ jsonrpc: '2.0', id, method, params });
});
const tools = [
  { name: 'elicit-flood', inputSchema: { type: 'object' } },
  { name: 'progress-flood', inputSchema: { type: 'object' } },
  { name: 'echo', inputSchema: { type: 'object' } },
];
const text = (value) => ({ content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] });
async function callTool(message) {
  const { name } = message.params;
  if (name === 'echo') return text('still here');
  if (name === 'elicit-flood') {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } } };
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, index) => request('elicitation/create', { message: 'Question ' + index, requestedSchema: schema })),
    );
    const refused = answers.filter((answer) => answer.error);
    return text({ answered: answers.length - refused.length, refused: refused.length, firstRefusal: refused[0]?.error });
  }
  if (name === 'progress-flood') {
    const progressToken = message.params._meta?.progressToken;
    for (let progress = 1; progress <= 10000; progress += 1) {
      send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress, total: 10000 } });
      if (progress % 1000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    return text('flooded');
  }
}
for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.method === undefined) {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
    continue;
  }
  if (message.id === undefined) continue;
  if (message.method === 'initialize') {
    send({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'flood', version: '1' } } });
  } else if (message.method === 'tools/list') {
    send({ jsonrpc: '2.0', id: message.id, result: { tools } });
  } else if (message.method === 'tools/call') {
    callTool(message).then((result) => send({ jsonrpc: '2.0', id: message.id, result }));
  } else {
    send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  }
}
`,
);

const hosts: McpToolHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function floodHost(elicit?: () => Promise<{ action: 'accept'; content: Record<string, unknown> }>): Promise<McpToolHost> {
  const host = await McpToolHost.create({
    settings: {
      mcpServers: {
        flood: { command: process.execPath, args: [FLOOD_SERVER], trust: true, protocolVersion: '2025-06-18', timeout: 30_000 },
      },
    },
    ...(elicit ? { ui: { elicit } } : {}),
  });
  hosts.push(host);
  await host.discover();
  return host;
}

describe('floods from a hostile server are bounded', () => {
  it('1,000 elicitations: the elicit hook sees a bounded number, the rest are refused as rate-limited, the host stays responsive', async () => {
    let seen = 0;
    const host = await floodHost(async () => {
      seen += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { action: 'accept', content: { ok: true } };
    });
    const rss = sampleProcess();
    const started = performance.now();
    const result = await host.callTool({ name: 'elicit-flood', arguments: {} });
    const elapsed = performance.now() - started;
    const { peakRssMb: peakMb, maxLagMs } = rss.stop();
    const outcome = JSON.parse(textOf(result)) as { answered: number; refused: number; firstRefusal?: { code: number; message: string } };
    console.info(
      `elicitation flood: ui.elicit saw ${seen} in ${elapsed.toFixed(0)} ms, answered ${outcome.answered}, refused ${outcome.refused}; peak RSS ${peakMb} MB, worst event-loop lag ${maxLagMs} ms`,
    );
    // At most 10 a second: 10 when the flood is read within a second, a few more when a busy
    // machine takes longer to read it (unlimited, the hook would see all 1,000).
    expect(seen).toBeLessThanOrEqual(10 * Math.ceil(elapsed / 1000));
    expect(seen).toBeLessThan(200);
    expect(outcome.answered).toBe(seen);
    expect(outcome.refused).toBe(1000 - seen);
    expect(outcome.firstRefusal?.message).toMatch(/Rate-limited: MCP server 'flood' sent too many elicitation\/create requests/);
    // Still responsive: another call goes through at once.
    expect(textOf(await host.callTool({ name: 'echo', arguments: {} }))).toBe('still here');
  });

  it('10,000 progress notifications: the tool-call-progress listener is called a bounded number of times and gets the final value', async () => {
    const host = await floodHost();
    const values: number[] = [];
    host.on('tool-call-progress', (event) => values.push(event.progress));
    const rss = sampleProcess();
    const started = performance.now();
    const result = await host.callTool({ name: 'progress-flood', arguments: {} });
    const elapsed = performance.now() - started;
    const { peakRssMb: peakMb } = rss.stop();
    console.info(
      `progress flood: 10,000 notifications in ${elapsed.toFixed(0)} ms → ${values.length} tool-call-progress events (last ${values.at(-1)}); peak RSS ${peakMb} MB`,
    );
    expect(textOf(result)).toBe('flooded');
    expect(values.at(-1)).toBe(10_000);
    // One per 100 ms, plus the first and the last.
    expect(values.length).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 2);
    expect(values.length).toBeLessThan(200);
  });
});
