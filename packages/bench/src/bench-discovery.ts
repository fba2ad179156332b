import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { McpServerManager, McpServerStatus } from '@toolhost/discovery';
import { sanitizeEnvironment } from '@toolhost/transport';
import { toBenchResult, type BenchResult } from './bench-result.js';
import { compareInterleaved } from './compare-interleaved.js';
import { runRepetitions, summarizeRepetitions } from './repetitions.js';
import { median } from './summarize.js';
import { discoverWithSdk, sdkDefaultChildEnvironment } from './sdk-baseline-discovery.js';

/** Options of {@link benchDiscovery}. */
export interface BenchDiscoveryOptions {
  /** Stdio servers discovered in parallel per run. @default 20 */
  readonly servers?: number;
  /** Independent repetitions. @default 5 */
  readonly repetitions?: number;
  /** Timed rounds per repetition (each runs both sides once, in alternating order). @default 2 */
  readonly rounds?: number;
  /** Untimed rounds before the first repetition, each with `min(servers, 4)` servers. @default 1 */
  readonly warmup?: number;
  /** Stop starting repetitions after this many milliseconds (at least 3 run). @default 100000 */
  readonly timeBudgetMs?: number;
  /**
   * `NODE_EXTRA_CA_CERTS` in the bench process while measuring (children inherit what the
   * library passes on): `undefined` measures without it (removed if the bench process has it),
   * a path measures with it set to that PEM bundle. @default undefined
   */
  readonly extraCaCertificates?: string;
}

const CLIENT_INFO = { name: 'toolhost-bench', version: '0.0.0' };

/** PEM bundles tried, in order, for the `NODE_EXTRA_CA_CERTS` case when the bench process has none. */
const CA_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/cert.pem'];

/** The PEM bundle for the `NODE_EXTRA_CA_CERTS` case: the bench process's own, else a system bundle. */
export function findCaBundle(env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const own = env['NODE_EXTRA_CA_CERTS'];
  if (own && existsSync(own)) return own;
  return CA_BUNDLES.find((path) => existsSync(path));
}

/** Run `task` with `process.env[name]` set to `value` (or removed), then put the old value back. */
async function withEnvironmentVariable<T>(name: string, value: string | undefined, task: () => Promise<T>): Promise<T> {
  const previous = process.env[name];
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
  try {
    return await task();
  } finally {
    if (previous === undefined) delete process.env[name];
    else process.env[name] = previous;
  }
}

/** Discover every server with toolhost's McpServerManager and its defaults, check each one connected, close. */
async function discoverWithToolhost(names: readonly string[], bin: string): Promise<void> {
  const manager = new McpServerManager({
    clientInfo: CLIENT_INFO,
    servers: names.map((name) => ({ name, config: { command: process.execPath, args: [bin] } })),
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

/** Start `node -e ''` with `env`; resolve with its wall time to exit and the CPU time it reports for itself. */
function startNodeChild(env: Record<string, string>): Promise<{ wallMs: number; cpuMs: number }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(
      process.execPath,
      ['-e', "process.on('exit', () => { const u = process.cpuUsage(); process.stdout.write(String(u.user + u.system)); })"],
      { env, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`node -e exited with ${String(code)}`));
      else resolve({ wallMs: performance.now() - start, cpuMs: Number(out) / 1000 });
    });
  });
}

/** What `NODE_EXTRA_CA_CERTS` costs one Node child: paired starts of `node -e ''` without and with it. */
export interface ChildStartupCost {
  /** Paired starts. */
  readonly pairs: number;
  /** Median wall time to exit without / with the variable, milliseconds. */
  readonly withoutMs: number;
  readonly withMs: number;
  /** Median CPU time the child reports for itself without / with the variable, milliseconds. */
  readonly cpuWithoutMs: number;
  readonly cpuWithMs: number;
}

/**
 * Start `node -e ''` `pairs` times with toolhost's child environment without `NODE_EXTRA_CA_CERTS`
 * and with it set to `caFile`, one after the other (alternating which goes first).
 */
export async function measureCaChildStartup(caFile: string, pairs = 10): Promise<ChildStartupCost> {
  const base = sanitizeEnvironment(process.env);
  delete base['NODE_EXTRA_CA_CERTS'];
  const withCa = { ...base, NODE_EXTRA_CA_CERTS: caFile };
  const without: Array<{ wallMs: number; cpuMs: number }> = [];
  const withIt: Array<{ wallMs: number; cpuMs: number }> = [];
  await startNodeChild(base); // warm the file cache
  await startNodeChild(withCa);
  for (let i = 0; i < pairs; i += 1) {
    if (i % 2 === 0) {
      without.push(await startNodeChild(base));
      withIt.push(await startNodeChild(withCa));
    } else {
      withIt.push(await startNodeChild(withCa));
      without.push(await startNodeChild(base));
    }
  }
  return {
    pairs,
    withoutMs: median(without.map((run) => run.wallMs)),
    withMs: median(withIt.map((run) => run.wallMs)),
    cpuWithoutMs: median(without.map((run) => run.cpuMs)),
    cpuWithMs: median(withIt.map((run) => run.cpuMs)),
  };
}

function caNote(caFile: string, cost: ChildStartupCost): string {
  const certificates = (readFileSync(caFile, 'utf8').match(/-----BEGIN CERTIFICATE-----/g) ?? []).length;
  return (
    `one Node child (node -e '', ${cost.pairs} paired starts) with NODE_EXTRA_CA_CERTS=${caFile} (${certificates} certificates): ` +
    `${cost.withMs.toFixed(1)} ms to exit vs ${cost.withoutMs.toFixed(1)} ms without, ` +
    `${cost.cpuWithMs.toFixed(1)} ms CPU vs ${cost.cpuWithoutMs.toFixed(1)} ms (the SDK's default environment never passes it)`
  );
}

function environmentNote(): string {
  const toolhostEnv = sanitizeEnvironment(process.env);
  const sdkEnv = sdkDefaultChildEnvironment();
  const ca = toolhostEnv['NODE_EXTRA_CA_CERTS'];
  return (
    `child environment: toolhost ${Object.keys(toolhostEnv).length} variables (sanitised process.env${ca ? `, with NODE_EXTRA_CA_CERTS=${ca}` : ', no NODE_EXTRA_CA_CERTS'}), ` +
    `SDK ${Object.keys(sdkEnv).length} (getDefaultEnvironment()${'NODE_EXTRA_CA_CERTS' in sdkEnv ? ', with NODE_EXTRA_CA_CERTS' : ''})`
  );
}

/**
 * Discovery of N stdio fixture servers (`basic`: tools, prompts, resources, templates) in
 * parallel, connect to close, with `McpServerManager` against the SDK's `Client` +
 * `StdioClientTransport` doing the same requests. Each side runs with its defaults, so each
 * gives the children the environment it would in an application: toolhost the sanitised
 * environment of the bench process, the SDK its small default one. With `extraCaCertificates`
 * the bench process has `NODE_EXTRA_CA_CERTS` set, as on a machine behind a TLS-inspecting proxy.
 */
export async function benchDiscovery(options: BenchDiscoveryOptions = {}): Promise<BenchResult> {
  const count = options.servers ?? 20;
  const bin = fixtureBinPath('basic');
  const names = Array.from({ length: count }, (_, i) => `fixture-${i + 1}`);
  const warmupNames = names.slice(0, 4);
  const ca = options.extraCaCertificates;
  if (ca !== undefined && !existsSync(ca)) throw new Error(`the CA bundle ${ca} does not exist`);
  const hadCa = process.env['NODE_EXTRA_CA_CERTS'];
  return withEnvironmentVariable('NODE_EXTRA_CA_CERTS', ca, async () => {
    for (let i = 0; i < (options.warmup ?? 1); i += 1) {
      await discoverWithToolhost(warmupNames, bin);
      await discoverWithSdk(warmupNames, bin);
    }
    const repetitions = await runRepetitions({ repetitions: options.repetitions ?? 5, timeBudgetMs: options.timeBudgetMs ?? 100_000 }, () =>
      compareInterleaved({
        subject: () => discoverWithToolhost(names, bin),
        baseline: () => discoverWithSdk(names, bin),
        warmup: 0,
        iterations: options.rounds ?? 2,
      }),
    );
    const notes = [environmentNote()];
    if (ca !== undefined) notes.push(caNote(ca, await measureCaChildStartup(ca)));
    if (ca === undefined && hadCa !== undefined) notes.push(`NODE_EXTRA_CA_CERTS of the bench process (${hadCa}) removed while measuring`);
    return toBenchResult({
      id: `discovery(${count} stdio${ca === undefined ? '' : ', NODE_EXTRA_CA_CERTS'})`,
      description: `connect ${count} stdio servers in parallel, list tools/prompts/resources/templates, close${ca === undefined ? '' : `; bench process has NODE_EXTRA_CA_CERTS=${ca}`}`,
      ratioName: 'toolhost/sdk',
      labels: { subject: 'toolhost McpServerManager', baseline: 'SDK Client + StdioClientTransport' },
      summary: summarizeRepetitions(repetitions),
      notes,
    });
  });
}
