import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { McpServerManager, McpServerStatus } from '@toolhost/discovery';
import type { BenchResult } from './bench-result.js';
import { compareInterleaved } from './compare-interleaved.js';
import { pairedRatio, ratio } from './ratio.js';
import { summarize } from './summarize.js';

/** Options of {@link benchDiscovery}. */
export interface BenchDiscoveryOptions {
  /** Stdio servers discovered in parallel per run. @default 20 */
  readonly servers?: number;
  /** Timed rounds (each runs both sides once). @default 6 */
  readonly iterations?: number;
  /** Untimed rounds first, each with `min(servers, 4)` servers (enough to load code and files). @default 1 */
  readonly warmup?: number;
  /** Stop starting rounds after this many milliseconds of timed rounds (at least 3 rounds run). @default 45000 */
  readonly timeBudgetMs?: number;
}

const CLIENT_INFO = { name: 'toolhost-bench', version: '0.0.0' };

// Both sides give the children the SDK's small default environment. toolhost otherwise passes the
// whole (sanitised) environment, and a variable such as NODE_EXTRA_CA_CERTS makes every Node child
// start measurably slower: that would time the environment, not the library.
const CHILD_ENV = getDefaultEnvironment();

/** Discover every server with toolhost's McpServerManager, check each one connected, close. */
async function discoverWithToolhost(names: readonly string[], bin: string): Promise<void> {
  const manager = new McpServerManager({
    clientInfo: CLIENT_INFO,
    servers: names.map((name) => ({ name, config: { command: process.execPath, args: [bin] } })),
    transportOptions: () => ({ env: CHILD_ENV }),
  });
  try {
    const snapshots = await manager.discoverAll();
    for (const snapshot of snapshots) {
      if (snapshot.status !== McpServerStatus.CONNECTED || snapshot.tools.length === 0) {
        throw new Error(`toolhost discovery of ${snapshot.name} failed: ${snapshot.lastError?.message ?? snapshot.status}`);
      }
    }
  } finally {
    await manager.close();
  }
}

/** The same work with the SDK alone: connect, list the four kinds of offerings, then close every client. */
async function discoverWithSdk(names: readonly string[], bin: string): Promise<void> {
  const clients: Client[] = [];
  try {
    await Promise.all(
      names.map(async () => {
        const transport = new StdioClientTransport({ command: process.execPath, args: [bin], env: CHILD_ENV, stderr: 'pipe' });
        transport.stderr?.on('data', () => undefined); // drain the ready line
        const client = new Client(CLIENT_INFO, { capabilities: {} });
        clients.push(client);
        await client.connect(transport);
        const [tools] = await Promise.all([
          client.listTools(),
          client.listPrompts(),
          client.listResources(),
          client.listResourceTemplates(),
        ]);
        if (tools.tools.length === 0) throw new Error('SDK discovery found no tools');
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}

/**
 * Discovery of N stdio fixture servers (`basic`: tools, prompts, resources, templates) in
 * parallel, connect to close, with `McpServerManager` against the SDK's `Client` +
 * `StdioClientTransport` doing the same requests. Both give the children the same environment
 * (the SDK's default one).
 */
export async function benchDiscovery(options: BenchDiscoveryOptions = {}): Promise<BenchResult> {
  const count = options.servers ?? 20;
  const bin = fixtureBinPath('basic');
  const names = Array.from({ length: count }, (_, i) => `fixture-${i + 1}`);
  const warmupNames = names.slice(0, 4);
  for (let i = 0; i < (options.warmup ?? 1); i += 1) {
    await discoverWithToolhost(warmupNames, bin);
    await discoverWithSdk(warmupNames, bin);
  }
  const samples = await compareInterleaved({
    subject: () => discoverWithToolhost(names, bin),
    baseline: () => discoverWithSdk(names, bin),
    warmup: 0,
    iterations: options.iterations ?? 6,
    timeBudgetMs: options.timeBudgetMs ?? 45_000,
  });
  const subject = summarize(samples.subject);
  const baseline = summarize(samples.baseline);
  return {
    id: `discovery(${count} stdio)`,
    description: `connect ${count} stdio servers in parallel, list tools/prompts/resources/templates, close`,
    subject: { label: 'toolhost McpServerManager', stats: subject },
    baseline: { label: 'SDK Client + StdioClientTransport', stats: baseline },
    ratioName: 'toolhost/sdk',
    ratio: ratio(subject.median, baseline.median),
    pairedRatio: pairedRatio(samples.subject, samples.baseline),
  };
}
