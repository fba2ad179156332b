import { createAiSdkTools } from '@toolhost/ai-sdk';
import { McpToolHost } from '@toolhost/host';
import type { Tool, ToolExecutionOptions } from 'ai';
import { toBenchResult, type BenchGoal, type BenchResult } from './bench-result.js';
import { compareInterleaved, type InterleavedSamples } from './compare-interleaved.js';
import { runRepetitions, summarizeRepetitions } from './repetitions.js';
import { mean } from './summarize.js';
import { connectAiSdkMcpEchoClient, type AiSdkMcpEchoClient } from './sdk-baseline-ai-sdk-mcp.js';
import { connectSdkEchoClient } from './sdk-baseline-call-tool.js';
import { assertWire, fixtureEntry, WIRES, type Wire } from './wires.js';

/** Options of {@link benchAiSdkCall}. */
export interface BenchAiSdkCallOptions {
  /** Independent repetitions, each with a fresh host, fresh `@ai-sdk/mcp` clients and fresh child processes. @default 5 */
  readonly repetitions?: number;
  /** Timed rounds per repetition; each round runs one batch on every side. @default 60 */
  readonly rounds?: number;
  /** Calls per batch. @default 25 */
  readonly batch?: number;
  /** Untimed rounds first in every repetition. @default 20 */
  readonly warmupRounds?: number;
  /**
   * At most this many whole repetitions run first on each row, untimed and left out of its
   * ratios, so the timed repetitions compare JIT-compiled code on both sides (a toolhost call runs
   * more functions than an `@ai-sdk/mcp` one, and neither is compiled after one repetition's
   * 2,000 calls). Warm-up stops early once a warm-up repetition's CPU time per call on the
   * toolhost side fell by less than {@link WARM_CPU_DROP} against the one before. The first is
   * reported as its own row (`... first repetition, JIT cold`), without a goal. 0 runs none. @default 4
   */
  readonly warmupRepetitions?: number;
}

/** The per-call goal: a `createAiSdkTools` tool's `execute` at most 5 % slower (wall) than `@ai-sdk/mcp`'s. */
export const AI_SDK_CALL_GOAL: BenchGoal = { wallRatio: 1.05 };

/**
 * Warm-up ends when a warm-up repetition's mean CPU time per call on the toolhost side is above
 * `1 - WARM_CPU_DROP` of the previous one's: the JIT has compiled what the calls run.
 */
export const WARM_CPU_DROP = 0.1;

/**
 * Untimed repetitions until the subject's CPU time per call stops falling (see
 * {@link WARM_CPU_DROP}), at most `most`; returns them in order.
 */
async function warmUp(most: number, run: () => Promise<InterleavedSamples>): Promise<InterleavedSamples[]> {
  const warmups: InterleavedSamples[] = [];
  while (warmups.length < most) {
    const samples = await run();
    const previous = warmups.at(-1);
    warmups.push(samples);
    if (previous && mean(samples.cpu.subject) > (1 - WARM_CPU_DROP) * mean(previous.cpu.subject)) break;
  }
  return warmups;
}

/** `@ai-sdk/mcp` negotiates with `initialize` only, so the benchmark runs on the 2025-11-25 wire. */
const WIRE: Wire = WIRES[0];

const MESSAGE = 'ping from the toolhost benchmark';

type Settings = Required<Omit<BenchAiSdkCallOptions, 'repetitions' | 'warmupRepetitions'>>;

/**
 * The timed paths: the tool's `execute` alone; what `generateText` does per call (approval check,
 * `execute`, `toModelOutput`); and, for reference, the MCP TypeScript SDK's own `client.callTool`
 * (toolhost connects with the SDK's client, but sends a plain `tools/call` straight on the
 * transport) against the same `@ai-sdk/mcp` baseline.
 */
type Path = 'execute' | 'generate-text' | 'sdk-floor';

function outputText(output: unknown): string | undefined {
  const content = (output as { content?: Array<{ type: string; text?: unknown }> }).content;
  const part = content?.find((candidate) => candidate.type === 'text');
  return typeof part?.text === 'string' ? part.text : undefined;
}

async function closeAll(closers: ReadonlyArray<(() => Promise<void>) | undefined>): Promise<void> {
  await Promise.all(closers.map((close) => close?.().catch(() => undefined)));
}

/** One repetition of the floor row: a raw MCP SDK client and two `@ai-sdk/mcp` clients, each on its own new server process. */
async function floorRepetition(settings: Settings): Promise<InterleavedSamples> {
  const entry = fixtureEntry(WIRE);
  const started = await Promise.allSettled([
    connectSdkEchoClient(entry, MESSAGE),
    connectAiSdkMcpEchoClient(entry, MESSAGE),
    connectAiSdkMcpEchoClient(entry, MESSAGE),
  ]);
  const [sdk, baseline, control] = started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : undefined)) as [
    Awaited<ReturnType<typeof connectSdkEchoClient>> | undefined,
    AiSdkMcpEchoClient | undefined,
    AiSdkMcpEchoClient | undefined,
  ];
  try {
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    if (!sdk || !baseline || !control) throw new Error('a side did not connect');
    assertWire(WIRE, sdk.protocolVersion, 'the MCP SDK client');
    assertWire(WIRE, baseline.protocolVersion, 'the @ai-sdk/mcp client');
    assertWire(WIRE, control.protocolVersion, 'the @ai-sdk/mcp control client');
    return await compareInterleaved({
      subject: () => sdk.call(),
      baseline: () => baseline.execute(),
      control: () => control.execute(),
      warmup: settings.warmupRounds,
      iterations: settings.rounds,
      batch: settings.batch,
    });
  } finally {
    await closeAll([sdk?.close, baseline?.close, control?.close]);
  }
}

/** One repetition: a fresh host (trusted fixture, so no approval) and two fresh `@ai-sdk/mcp` clients, each on its own new server process. */
async function repetition(path: Exclude<Path, 'sdk-floor'>, settings: Settings): Promise<InterleavedSamples> {
  const entry = fixtureEntry(WIRE);
  const host = await McpToolHost.create({ settings: { mcpServers: { fixture: { ...entry, trust: true } } } });
  const started = await Promise.allSettled([
    host.discover(),
    connectAiSdkMcpEchoClient(entry, MESSAGE),
    connectAiSdkMcpEchoClient(entry, MESSAGE),
  ]);
  const baseline: AiSdkMcpEchoClient | undefined = started[1].status === 'fulfilled' ? started[1].value : undefined;
  const control: AiSdkMcpEchoClient | undefined = started[2].status === 'fulfilled' ? started[2].value : undefined;
  try {
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    if (started[0].status !== 'fulfilled' || !baseline || !control) throw new Error('a side did not connect');
    const server = started[0].value.servers.find((candidate) => candidate.name === 'fixture');
    assertWire(
      WIRE,
      server?.protocolVersion,
      `McpToolHost (${server?.status ?? 'no server'}${server?.lastError ? `: ${server.lastError}` : ''})`,
    );
    assertWire(WIRE, baseline.protocolVersion, 'the @ai-sdk/mcp client');
    assertWire(WIRE, control.protocolVersion, 'the @ai-sdk/mcp control client');
    const echo = host.servers.listTools().find((tool) => tool.serverName === 'fixture' && tool.originalName === 'echo');
    if (!echo) throw new Error(`McpToolHost did not discover the fixture's echo tool: ${host.servers.formatStatus()}`);
    const tool = createAiSdkTools(host)[echo.name] as Tool<unknown, unknown> & {
      execute: (input: unknown, options: ToolExecutionOptions) => Promise<unknown>;
      needsApproval: (input: unknown, options: { toolCallId: string; messages: never[] }) => Promise<boolean>;
    };
    const input = { message: MESSAGE };
    let calls = 0;
    const execute = async (): Promise<unknown> => {
      calls += 1;
      const output = await tool.execute(input, { toolCallId: `call-${calls}`, messages: [] });
      if ((output as { isError?: unknown }).isError === true || outputText(output) !== MESSAGE) {
        throw new Error(`the createAiSdkTools echo did not echo the message: ${JSON.stringify(output)}`);
      }
      return output;
    };
    const subject =
      path === 'execute'
        ? execute
        : async () => {
            if (await tool.needsApproval(input, { toolCallId: `call-${calls + 1}`, messages: [] }))
              throw new Error('a trusted call asked for approval');
            const output = await execute();
            await tool.toModelOutput?.({ toolCallId: `call-${calls}`, input, output });
          };
    const samples = await compareInterleaved({
      subject,
      baseline: path === 'execute' ? () => baseline.execute() : () => baseline.executeAndMap(),
      control: path === 'execute' ? () => control.execute() : () => control.executeAndMap(),
      warmup: settings.warmupRounds,
      iterations: settings.rounds,
      batch: settings.batch,
    });
    assertWire(
      WIRE,
      host.servers.status().servers.find((candidate) => candidate.name === 'fixture')?.protocolVersion,
      'McpToolHost after the calls',
    );
    return samples;
  } finally {
    await closeAll([() => host.close(), baseline?.close, control?.close]);
  }
}

/**
 * One `echo` call on the stdio fixture server `basic` (2025-11-25, the revision `@ai-sdk/mcp`
 * speaks), as the AI SDK makes it: a `createAiSdkTools` tool's `execute` (trusted server, so no
 * confirmation: `host.callTool` with argument validation, policy, call, result mapping, events, and
 * the output object) against the `execute` of `@ai-sdk/mcp`'s tool from `client.tools()` on its own
 * process of the same server, and a second `@ai-sdk/mcp` client on a third process as the control
 * (its ratio is the noise floor). A second row times what `generateText` does per call: for
 * toolhost `needsApproval` (`host.confirmations.check`), `execute` and `toModelOutput`; for
 * `@ai-sdk/mcp` (no `needsApproval`) `execute` and `toModelOutput`. A third row times the MCP
 * TypeScript SDK's own `client.callTool` against the same baseline, for reference (toolhost's
 * connection is the SDK's client, but a plain call skips its request machinery). Every answer is checked.
 * Each row first runs untimed warm-up repetitions until the JIT has compiled the calls (at most
 * `warmupRepetitions`); the execute row's first one is returned as a row of its own (the JIT-cold
 * cost), after the execute row.
 */
export async function benchAiSdkCall(options: BenchAiSdkCallOptions = {}): Promise<BenchResult[]> {
  const settings: Settings = {
    rounds: options.rounds ?? 60,
    batch: options.batch ?? 25,
    warmupRounds: options.warmupRounds ?? 20,
  };
  const repetitions = options.repetitions ?? 5;
  const warmupRepetitions = options.warmupRepetitions ?? 4;
  const results: BenchResult[] = [];
  const labels: Record<Path, { subject: string; baseline: string; control: string }> = {
    execute: { subject: 'createAiSdkTools execute', baseline: '@ai-sdk/mcp execute', control: '@ai-sdk/mcp execute (control)' },
    'generate-text': {
      subject: 'createAiSdkTools needsApproval+execute+toModelOutput',
      baseline: '@ai-sdk/mcp execute+toModelOutput',
      control: '@ai-sdk/mcp execute+toModelOutput (control)',
    },
    'sdk-floor': { subject: 'MCP SDK client.callTool', baseline: '@ai-sdk/mcp execute', control: '@ai-sdk/mcp execute (control)' },
  };
  const ids: Record<Path, string> = {
    execute: `aiSdkTool.execute(stdio echo, ${WIRE.revision})`,
    'generate-text': `aiSdkTool per call in generateText(stdio echo, ${WIRE.revision})`,
    'sdk-floor': `MCP SDK client.callTool vs @ai-sdk/mcp(stdio echo, ${WIRE.revision})`,
  };
  const descriptions: Record<Path, string> = {
    execute: `one call of the echo tool's execute, createAiSdkTools vs @ai-sdk/mcp client.tools(), per call (${settings.rounds} rounds x ${settings.batch} calls per side and repetition)`,
    'generate-text':
      'needsApproval + execute + toModelOutput (toolhost) vs execute + toModelOutput (@ai-sdk/mcp, which has no approval check), per call',
    'sdk-floor':
      'the MCP TypeScript SDK client used directly vs @ai-sdk/mcp, for reference (toolhost connects with it, but sends a plain tools/call straight on the transport)',
  };
  for (const path of ['execute', 'generate-text', 'sdk-floor'] as const) {
    const run = (): Promise<InterleavedSamples> => (path === 'sdk-floor' ? floorRepetition(settings) : repetition(path, settings));
    const warmups = await warmUp(warmupRepetitions, run);
    const summary = summarizeRepetitions(await runRepetitions({ repetitions }, run));
    results.push(
      toBenchResult({
        id: ids[path],
        description: descriptions[path],
        ratioName: path === 'sdk-floor' ? 'sdk/@ai-sdk/mcp' : 'toolhost/@ai-sdk/mcp',
        labels: labels[path],
        summary,
        ...(path === 'execute' ? { goal: AI_SDK_CALL_GOAL } : {}),
        revision: WIRE.revision,
        ...(warmups.length > 0
          ? {
              notes: [
                `after ${warmups.length} untimed warm-up repetition(s) on every side, until toolhost's CPU time per call fell by less than ${WARM_CPU_DROP * 100} % (JIT-compiled code on both sides)`,
              ],
            }
          : {}),
      }),
    );
    const cold = warmups[0];
    if (path === 'execute' && cold) {
      results.push(
        toBenchResult({
          id: `aiSdkTool.execute first repetition, JIT cold(stdio echo, ${WIRE.revision})`,
          description: `the warm-up repetition of the execute row: the first ${settings.warmupRounds + settings.rounds} rounds of each side in this process, so the JIT is still compiling (no goal)`,
          ratioName: 'toolhost/@ai-sdk/mcp',
          labels: labels[path],
          summary: summarizeRepetitions([cold]),
          revision: WIRE.revision,
        }),
      );
    }
  }
  return results;
}
