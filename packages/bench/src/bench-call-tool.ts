import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { McpToolHost } from '@toolhost/host';
import type { BenchResult } from './bench-result.js';
import { compareInterleaved } from './compare-interleaved.js';
import { pairedRatio, ratio } from './ratio.js';
import { summarize } from './summarize.js';

/** Options of {@link benchCallTool}. */
export interface BenchCallToolOptions {
  /** Timed calls on each side. @default 200 */
  readonly iterations?: number;
  /** Untimed calls on each side first. @default 30 */
  readonly warmup?: number;
}

const MESSAGE = 'ping from the toolhost benchmark';

function textOf(parts: ReadonlyArray<{ type: string; text?: unknown }> | undefined): string | undefined {
  const part = parts?.find((candidate) => candidate.type === 'text');
  return typeof part?.text === 'string' ? part.text : undefined;
}

/**
 * One `echo` call on the stdio fixture server `basic`: `McpToolHost.callTool` (trusted
 * server, so no confirmation: lookup, argument validation, policy, call, result mapping,
 * events) against the SDK's `client.callTool` on its own connection to the same server binary.
 * Calls alternate between the two sides; each call's answer is checked.
 */
export async function benchCallTool(options: BenchCallToolOptions = {}): Promise<BenchResult> {
  const bin = fixtureBinPath('basic');
  const host = await McpToolHost.create({
    settings: { mcpServers: { fixture: { command: process.execPath, args: [bin], trust: true } } },
  });
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin], stderr: 'pipe' });
  transport.stderr?.on('data', () => undefined); // drain the ready line
  const client = new Client({ name: 'toolhost-bench', version: '0.0.0' }, { capabilities: {} });
  try {
    await Promise.all([host.discover(), client.connect(transport)]);
    const echo = host.listToolDefinitions().find((tool) => tool.serverName === 'fixture' && tool.originalName === 'echo');
    if (!echo) throw new Error(`McpToolHost did not discover the fixture's echo tool: ${host.formatStatus()}`);
    const samples = await compareInterleaved({
      subject: async () => {
        const result = await host.callTool(echo.name, { message: MESSAGE });
        if (result.isError || !textOf(result.parts)?.includes(MESSAGE)) {
          throw new Error(`host.callTool failed: ${result.display}`);
        }
      },
      baseline: async () => {
        const result = await client.callTool({ name: 'echo', arguments: { message: MESSAGE } });
        const content = result.content as Array<{ type: string; text?: unknown }>;
        if (result.isError === true || textOf(content) !== MESSAGE) throw new Error('client.callTool failed');
      },
      warmup: options.warmup ?? 30,
      iterations: options.iterations ?? 200,
    });
    const subject = summarize(samples.subject);
    const baseline = summarize(samples.baseline);
    return {
      id: 'callTool(stdio echo)',
      description: 'one tools/call of echo on the stdio fixture server, per call',
      subject: { label: 'McpToolHost.callTool', stats: subject },
      baseline: { label: 'SDK client.callTool', stats: baseline },
      ratioName: 'toolhost/sdk',
      ratio: ratio(subject.median, baseline.median),
    pairedRatio: pairedRatio(samples.subject, samples.baseline),
    };
  } finally {
    await Promise.all([host.close(), client.close()]);
  }
}
