import { McpToolHost } from '@toolhost/host';
import { toBenchResult, type BenchGoal, type BenchResult } from './bench-result.js';
import { compareInterleaved, type InterleavedSamples } from './compare-interleaved.js';
import { runRepetitions, summarizeRepetitions } from './repetitions.js';
import { connectSdkEchoClient } from './sdk-baseline-call-tool.js';
import { assertWire, fixtureEntry, WIRES, type Wire } from './wires.js';

/** Options of {@link benchCallTool}. */
export interface BenchCallToolOptions {
  /** The revision to run on. @default 2025-11-25 */
  readonly wire?: Wire;
  /** Independent repetitions, each with a fresh host, fresh SDK clients and fresh child processes. @default 5 */
  readonly repetitions?: number;
  /** Timed rounds per repetition; each round runs one batch on every side. @default 60 */
  readonly rounds?: number;
  /** Calls per batch (wall and CPU time are measured per batch). @default 25 */
  readonly batch?: number;
  /** Untimed rounds first in every repetition (the new server processes warm up too). @default 20 */
  readonly warmupRounds?: number;
}

/** The per-call goal: `McpToolHost.callTool` at most 5 % slower (wall) than a raw SDK `client.callTool`. */
export const CALL_TOOL_GOAL: BenchGoal = { wallRatio: 1.05 };

const MESSAGE = 'ping from the toolhost benchmark';

function textOf(parts: ReadonlyArray<{ type: string; text?: unknown }> | undefined): string | undefined {
  const part = parts?.find((candidate) => candidate.type === 'text');
  return typeof part?.text === 'string' ? part.text : undefined;
}

async function closeAll(closers: ReadonlyArray<(() => Promise<void>) | undefined>): Promise<void> {
  await Promise.all(closers.map((close) => close?.().catch(() => undefined)));
}

type Settings = Required<Omit<BenchCallToolOptions, 'repetitions' | 'wire'>>;

/** One repetition: a fresh host and two fresh SDK clients, each on its own new server process, all on `wire`. */
async function repetition(wire: Wire, settings: Settings): Promise<InterleavedSamples> {
  const entry = fixtureEntry(wire);
  const host = await McpToolHost.create({ settings: { mcpServers: { fixture: { ...entry, trust: true } } } });
  const started = await Promise.allSettled([host.discover(), connectSdkEchoClient(entry, MESSAGE), connectSdkEchoClient(entry, MESSAGE)]);
  const sdk = started[1].status === 'fulfilled' ? started[1].value : undefined;
  const control = started[2].status === 'fulfilled' ? started[2].value : undefined;
  try {
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    if (started[0].status !== 'fulfilled' || !sdk || !control) throw new Error('a side did not connect');
    const server = started[0].value.servers.find((candidate) => candidate.name === 'fixture');
    assertWire(
      wire,
      server?.protocolVersion,
      `McpToolHost (${server?.status ?? 'no server'}${server?.lastError ? `: ${server.lastError}` : ''})`,
    );
    assertWire(wire, sdk.protocolVersion, 'the SDK client');
    assertWire(wire, control.protocolVersion, 'the SDK control client');
    const echo = host.servers.listTools().find((tool) => tool.serverName === 'fixture' && tool.originalName === 'echo');
    if (!echo) throw new Error(`McpToolHost did not discover the fixture's echo tool: ${host.servers.formatStatus()}`);
    const samples = await compareInterleaved({
      subject: async () => {
        const result = await host.callTool({ name: echo.name, arguments: { message: MESSAGE } });
        if (result.isError || textOf(result.parts) !== MESSAGE) throw new Error(`host.callTool failed: ${result.display}`);
      },
      baseline: () => sdk.call(),
      control: () => control.call(),
      warmup: settings.warmupRounds,
      iterations: settings.rounds,
      batch: settings.batch,
    });
    // Still on the claimed wire after every call (a reconnect could have landed elsewhere).
    assertWire(
      wire,
      host.servers.status().servers.find((candidate) => candidate.name === 'fixture')?.protocolVersion,
      'McpToolHost after the calls',
    );
    return samples;
  } finally {
    await closeAll([() => host.close(), sdk?.close, control?.close]);
  }
}

/**
 * One `echo` call on the stdio fixture server `basic` speaking only `wire`'s revision:
 * `McpToolHost.callTool` (trusted server, so no confirmation: lookup, argument validation,
 * policy, call, result mapping, events) against a raw SDK `client.callTool` (toolhost's version
 * negotiation) on its own process of the same server, and a second raw client on a third process
 * as the control (same code as the baseline: its ratio is the noise floor). Every side must have
 * negotiated the wire's revision ({@link WireMismatchError} otherwise). Calls run in batches
 * whose order changes every round; every answer is checked. Each repetition starts afresh.
 */
export async function benchCallTool(options: BenchCallToolOptions = {}): Promise<BenchResult> {
  const wire = options.wire ?? WIRES[0];
  const settings: Settings = {
    rounds: options.rounds ?? 60,
    batch: options.batch ?? 25,
    warmupRounds: options.warmupRounds ?? 20,
  };
  const repetitions = await runRepetitions({ repetitions: options.repetitions ?? 5 }, () => repetition(wire, settings));
  return toBenchResult({
    id: `callTool(stdio echo, ${wire.revision})`,
    description: `one tools/call of echo on the stdio fixture server (--era=${wire.era}), per call (${settings.rounds} rounds x ${settings.batch} calls per side and repetition)`,
    ratioName: 'toolhost/sdk',
    labels: { subject: 'McpToolHost.callTool', baseline: 'SDK client.callTool', control: 'SDK client.callTool (control)' },
    summary: summarizeRepetitions(repetitions),
    goal: CALL_TOOL_GOAL,
    revision: wire.revision,
  });
}
