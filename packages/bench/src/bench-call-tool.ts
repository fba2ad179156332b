import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { McpToolHost } from '@toolhost/host';
import { toBenchResult, type BenchGoal, type BenchResult } from './bench-result.js';
import { compareInterleaved, type InterleavedSamples } from './compare-interleaved.js';
import { runRepetitions, summarizeRepetitions } from './repetitions.js';
import { connectSdkEchoClient, type SdkEchoClient } from './sdk-baseline-call-tool.js';

/** Options of {@link benchCallTool}. */
export interface BenchCallToolOptions {
  /** Independent repetitions, each with a fresh host, fresh SDK clients and fresh child processes. @default 5 */
  readonly repetitions?: number;
  /** Timed rounds per repetition; each round runs one batch on every side. @default 60 */
  readonly rounds?: number;
  /** Calls per batch (wall and CPU time are measured per batch). @default 25 */
  readonly batch?: number;
  /** Untimed rounds first in every repetition (the new server processes warm up too). @default 20 */
  readonly warmupRounds?: number;
}

/** The per-call goal: `McpToolHost.callTool` at most 5 % slower and 10 % more CPU than the SDK's `client.callTool`. */
export const CALL_TOOL_GOAL: BenchGoal = { wallRatio: 1.05, cpuRatio: 1.1 };

const MESSAGE = 'ping from the toolhost benchmark';

function textOf(parts: ReadonlyArray<{ type: string; text?: unknown }> | undefined): string | undefined {
  const part = parts?.find((candidate) => candidate.type === 'text');
  return typeof part?.text === 'string' ? part.text : undefined;
}

async function closeAll(closers: ReadonlyArray<(() => Promise<void>) | undefined>): Promise<void> {
  await Promise.all(closers.map((close) => close?.().catch(() => undefined)));
}

/** One repetition: a fresh host and two fresh SDK clients, each on its own new server process. */
async function repetition(bin: string, options: Required<Omit<BenchCallToolOptions, 'repetitions'>>): Promise<InterleavedSamples> {
  const host = await McpToolHost.create({
    settings: { mcpServers: { fixture: { command: process.execPath, args: [bin], trust: true } } },
  });
  const started = await Promise.allSettled([host.discover(), connectSdkEchoClient(bin, MESSAGE), connectSdkEchoClient(bin, MESSAGE)]);
  const sdk = started[1].status === 'fulfilled' ? (started[1].value as SdkEchoClient) : undefined;
  const control = started[2].status === 'fulfilled' ? (started[2].value as SdkEchoClient) : undefined;
  try {
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    if (!sdk || !control) throw new Error('the SDK clients did not connect');
    const echo = host.servers.listTools().find((tool) => tool.serverName === 'fixture' && tool.originalName === 'echo');
    if (!echo) throw new Error(`McpToolHost did not discover the fixture's echo tool: ${host.servers.formatStatus()}`);
    return await compareInterleaved({
      subject: async () => {
        const result = await host.callTool({ name: echo.name, arguments: { message: MESSAGE } });
        if (result.isError || textOf(result.parts) !== MESSAGE) throw new Error(`host.callTool failed: ${result.display}`);
      },
      baseline: () => sdk.call(),
      control: () => control.call(),
      warmup: options.warmupRounds,
      iterations: options.rounds,
      batch: options.batch,
    });
  } finally {
    await closeAll([() => host.close(), sdk?.close, control?.close]);
  }
}

/**
 * One `echo` call on the stdio fixture server `basic`: `McpToolHost.callTool` (trusted server,
 * so no confirmation: lookup, argument validation, policy, call, result mapping, events) against
 * the SDK's `client.callTool` on its own process of the same server, and a second SDK client on
 * a third process as the control (same code as the baseline: its ratio is the noise floor).
 * Calls run in batches whose order changes every round; every answer is checked. Each
 * repetition starts everything afresh.
 */
export async function benchCallTool(options: BenchCallToolOptions = {}): Promise<BenchResult> {
  const bin = fixtureBinPath('basic');
  const settings = {
    rounds: options.rounds ?? 60,
    batch: options.batch ?? 25,
    warmupRounds: options.warmupRounds ?? 20,
  };
  const repetitions = await runRepetitions({ repetitions: options.repetitions ?? 5 }, () => repetition(bin, settings));
  return toBenchResult({
    id: 'callTool(stdio echo)',
    description: `one tools/call of echo on the stdio fixture server, per call (${settings.rounds} rounds x ${settings.batch} calls per side and repetition)`,
    ratioName: 'toolhost/sdk',
    labels: { subject: 'McpToolHost.callTool', baseline: 'SDK client.callTool', control: 'SDK client.callTool (control)' },
    summary: summarizeRepetitions(repetitions),
    goal: CALL_TOOL_GOAL,
  });
}
