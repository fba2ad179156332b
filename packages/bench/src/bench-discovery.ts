import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { McpServerStatus, STDIO_PROBE_TIMEOUT_MS } from '@toolhost/discovery';
import { McpToolHost } from '@toolhost/host';
import { sanitizeEnvironment } from '@toolhost/transport';
import { toBenchResult, type BenchGoal, type BenchResult } from './bench-result.js';
import { compareInterleaved } from './compare-interleaved.js';
import { runRepetitions, summarizeRepetitions } from './repetitions.js';
import { sdkDefaultChildEnvironment } from './sdk-baseline-client.js';
import { discoverWithSdk, type SdkDiscovery } from './sdk-baseline-discovery.js';
import { median } from './summarize.js';
import { assertWire, fixtureEntry, WIRES, type StdioServerEntry, type Wire } from './wires.js';

/** Options of {@link benchDiscovery}. */
export interface BenchDiscoveryOptions {
  /** The revision to run on. @default 2025-11-25 */
  readonly wire?: Wire;
  /** Stdio servers discovered in parallel per run. @default 20 */
  readonly servers?: number;
  /** Independent repetitions. @default 5 */
  readonly repetitions?: number;
  /** Timed rounds per repetition (each runs every side once, the order changing every round). @default 2 */
  readonly rounds?: number;
  /** Untimed rounds before the first repetition, each with `min(servers, 4)` servers per side. @default 1 */
  readonly warmup?: number;
  /** Stop starting repetitions after this many milliseconds (at least 3 run). @default 20000 per repetition */
  readonly timeBudgetMs?: number;
  /**
   * `NODE_EXTRA_CA_CERTS` in the bench process while measuring (children inherit what the
   * library passes on): `undefined` measures without it (removed if the bench process has it),
   * a path measures with it set to that PEM bundle. @default undefined
   */
  readonly extraCaCertificates?: string;
}

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

/** The discovery goal: `McpToolHost.discover()` of N servers at most 5 % slower (wall) than raw SDK clients doing the same. */
export const DISCOVERY_GOAL: BenchGoal = { wallRatio: 1.05 };

/**
 * Discover every entry with a new `McpToolHost` and its defaults (`host.discover()`), check
 * each server connected with tools on `wire`'s revision, then `host.close()` (which ends the
 * child processes).
 */
async function discoverWithHost(entries: readonly StdioServerEntry[], wire: Wire): Promise<void> {
  const host = await McpToolHost.create({
    settings: { mcpServers: Object.fromEntries(entries.map((entry, i) => [`fixture-${i + 1}`, entry])) },
  });
  try {
    const status = await host.discover();
    for (const server of status.servers) {
      if (server.status !== McpServerStatus.CONNECTED || server.tools.length === 0) {
        const detail = `${server.errorCode ?? server.status}: ${server.lastError ?? 'no tools'}`;
        throw new Error(
          `McpToolHost discovery of ${server.name} on the ${wire.revision} wire failed (${detail})${probeHint(wire, detail)}`,
        );
      }
      assertWire(wire, server.protocolVersion, `McpToolHost (server ${server.name})`);
    }
  } finally {
    await host.close();
  }
}

/**
 * When a 2026-07-28-only server refused `initialize`, the client fell back to it: its
 * `server/discover` probe got no answer within `STDIO_PROBE_TIMEOUT_MS`, which happens when N
 * servers start at once on an overloaded machine. Say so, rather than leave a bare -32022.
 */
function probeHint(wire: Wire, message: string): string {
  return wire.era === 'modern' && /unsupported protocol version|-32022/i.test(message)
    ? ` (a ${wire.revision}-only server refused initialize: the client's server/discover probe got no answer within ` +
        `STDIO_PROBE_TIMEOUT_MS = ${STDIO_PROBE_TIMEOUT_MS} ms and it fell back to the 2025 handshake; is the machine overloaded?)`
    : '';
}

/** Discover every entry with raw SDK clients and check each negotiated `wire`'s revision. */
async function discoverWithSdkOn(entries: readonly StdioServerEntry[], wire: Wire, who: string): Promise<void> {
  let protocolVersions: SdkDiscovery['protocolVersions'];
  try {
    ({ protocolVersions } = await discoverWithSdk(entries));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${who} on the ${wire.revision} wire failed: ${message}${probeHint(wire, message)}`, { cause: error });
  }
  protocolVersions.forEach((version, i) => assertWire(wire, version, `${who} (server ${i + 1})`));
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
    `${cost.cpuWithMs.toFixed(1)} ms CPU vs ${cost.cpuWithoutMs.toFixed(1)} ms (neither side passes it to these servers: the SDK's default environment never does, toolhost only to package runners)`
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
 * Discovery of N stdio fixture servers (`basic`: tools, prompts, resources, templates) speaking
 * only `wire`'s revision, in parallel, connect to close: `McpToolHost.create()` + `discover()` +
 * `close()` against raw SDK clients (toolhost's version negotiation, probing in place) that
 * connect, open the list-change subscription where toolhost does (2026-07-28), list
 * tools/prompts/resources/templates and close; a second raw run is the control (noise floor).
 * Every server of every run must have negotiated the wire's revision ({@link WireMismatchError}
 * otherwise). Each side runs with its defaults, so each gives the children the environment it
 * would in an application: toolhost the sanitised environment of the bench process, the SDK its
 * small default one. With `extraCaCertificates` the bench process has `NODE_EXTRA_CA_CERTS` set,
 * as on a machine behind a TLS-inspecting proxy.
 */
export async function benchDiscovery(options: BenchDiscoveryOptions = {}): Promise<BenchResult> {
  const wire = options.wire ?? WIRES[0];
  const count = options.servers ?? 20;
  const entries = Array.from({ length: count }, () => fixtureEntry(wire));
  const warmupEntries = entries.slice(0, 4);
  const ca = options.extraCaCertificates;
  if (ca !== undefined && !existsSync(ca)) throw new Error(`the CA bundle ${ca} does not exist`);
  const hadCa = process.env['NODE_EXTRA_CA_CERTS'];
  return withEnvironmentVariable('NODE_EXTRA_CA_CERTS', ca, async () => {
    for (let i = 0; i < (options.warmup ?? 1); i += 1) {
      await discoverWithHost(warmupEntries, wire);
      await discoverWithSdkOn(warmupEntries, wire, 'the SDK clients');
      await discoverWithSdkOn(warmupEntries, wire, 'the SDK control clients');
    }
    const repetitions = await runRepetitions(
      { repetitions: options.repetitions ?? 5, timeBudgetMs: options.timeBudgetMs ?? 20_000 * (options.repetitions ?? 5) },
      () =>
        compareInterleaved({
          subject: () => discoverWithHost(entries, wire),
          baseline: () => discoverWithSdkOn(entries, wire, 'the SDK clients'),
          control: () => discoverWithSdkOn(entries, wire, 'the SDK control clients'),
          warmup: 0,
          iterations: options.rounds ?? 2,
        }),
    );
    const notes = [environmentNote()];
    if (ca !== undefined) notes.push(caNote(ca, await measureCaChildStartup(ca)));
    if (ca === undefined && hadCa !== undefined) notes.push(`NODE_EXTRA_CA_CERTS of the bench process (${hadCa}) removed while measuring`);
    return toBenchResult({
      id: `discovery(${count} stdio, ${wire.revision}${ca === undefined ? '' : ', NODE_EXTRA_CA_CERTS'})`,
      description:
        `connect ${count} stdio servers (--era=${wire.era}) in parallel, list tools/prompts/resources/templates, close` +
        `${ca === undefined ? '' : `; bench process has NODE_EXTRA_CA_CERTS=${ca}`}`,
      ratioName: 'toolhost/sdk',
      labels: { subject: 'McpToolHost.discover', baseline: 'SDK Client x N', control: 'SDK Client x N (control)' },
      summary: summarizeRepetitions(repetitions),
      notes,
      revision: wire.revision,
      // With NODE_EXTRA_CA_CERTS set, toolhost's defaults must still keep up: its children do not inherit it.
      goal: DISCOVERY_GOAL,
    });
  });
}
