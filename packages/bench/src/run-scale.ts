import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { McpToolHost } from '@toolhost/host';
import { getGc } from './gc.js';
import { startScaleServers, type ScaleServers } from './scale-server-process.js';
import {
  judgeScale,
  latencySummary,
  medianSample,
  memoryPerHost,
  openLoopSchedule,
  p99Ratio,
  pairedP99Ratio,
  SCALE_GOAL,
  sliceSchedule,
  type LatencySummary,
  type MemoryPerHost,
  type MemorySample,
  type ScaleGoal,
  type ScaleVerdict,
} from './scale-stats.js';
import { connectSdkHttpEchoClient, type SdkHttpEchoClient } from './sdk-baseline-http.js';
import { WireMismatchError, type WireRevision } from './wires.js';

/** Options of {@link runScale}. */
export interface RunScaleOptions {
  /** The revision every host and raw client must negotiate. */
  readonly revision: WireRevision;
  /** Hosts, raw clients and control clients (each on its own server). */
  readonly hosts: number;
  /** Requests per second per side, open loop, round-robin over the side's hosts or clients. */
  readonly rate: number;
  /** Timed load per side, in milliseconds. */
  readonly durationMs: number;
  /** Untimed load per side first, in milliseconds. @default 2000 */
  readonly warmupMs?: number;
  /** Length of one interleaved slice, in milliseconds. @default 500 */
  readonly sliceMs?: number;
  /** GC'd memory samples per measurement (their median is taken). @default 5 */
  readonly memorySamples?: number;
  /** Hosts or clients connected at once while setting up. @default 20 */
  readonly connectConcurrency?: number;
  /**
   * Collect garbage (a full `gc()`, untimed) before every timed slice, so each slice starts from the
   * same heap state: without it a full collection, paid for by whichever side's slice it falls in,
   * decides the p99 of that side (tens of ms against a p50 of ~2 ms). @default true
   */
  readonly collectBetweenSlices?: boolean;
  /** The goal to judge against. @default {@link SCALE_GOAL} */
  readonly goal?: ScaleGoal;
  /** Progress lines (to stderr in the command). */
  readonly onProgress?: (line: string) => void;
}

/** A revision that could not be measured. */
export interface ScaleFailure {
  readonly revision: WireRevision;
  readonly message: string;
}

/** The load one side carried and how it answered. */
export interface ScaleSide {
  /** `McpToolHost.callTool`, `SDK client.callTool`, `SDK client.callTool (control)`. */
  readonly label: string;
  /** Per-request latency (from the request's scheduled time to its checked answer), milliseconds. */
  readonly latency: LatencySummary;
  /** CPU time of this process (user + system) per request over the side's slices, microseconds. */
  readonly cpuUsPerRequest: number;
  /**
   * Wall time of the side's slices (first send to last answer) over their planned length: near 1
   * when the side kept up with the rate; well above 1 when it could not, and the latencies then
   * measure a growing queue (`SATURATED_SLICE_STRETCH` of scale-stats.ts).
   */
  readonly sliceStretch: number;
}

/** Everything one revision of `pnpm bench:scale` measured. */
export interface ScaleRun {
  readonly revision: WireRevision;
  readonly hosts: number;
  readonly rate: number;
  readonly durationMs: number;
  readonly sliceMs: number;
  /** Where it ran. */
  readonly environment: {
    readonly node: string;
    readonly cpus: number;
    readonly loadAverage: readonly number[];
    readonly loadAverageAtEnd: readonly number[];
  };
  readonly memory: {
    /** Median of GC'd samples with only the warmed-up code loaded (no host, no client alive). */
    readonly empty: MemorySample;
    /** Growth per raw SDK client (connected, tools listed). */
    readonly raw: MemoryPerHost;
    /** Growth per McpToolHost (created, discovered). */
    readonly host: MemoryPerHost;
    /** `host.bytes - raw.bytes`: the figure of `per-host memory over raw`. */
    readonly overRawBytes: number;
    /** GC'd samples per measurement. */
    readonly samples: number;
  };
  readonly latency: {
    readonly host: ScaleSide;
    readonly raw: ScaleSide;
    readonly control: ScaleSide;
    /** p99 host / p99 raw. */
    readonly p99Ratio: number;
    /** p99 control / p99 raw: the noise floor (same code both sides). */
    readonly controlP99Ratio: number;
    /** Median over slice rounds of the per-round p99 ratio host/raw (robust to load that changes between rounds). */
    readonly roundP99Ratio: number;
    /** The same for control/raw. */
    readonly controlRoundP99Ratio: number;
  };
  readonly goal: ScaleGoal;
  readonly verdict: ScaleVerdict;
  /** Wall time of the whole revision, milliseconds. */
  readonly wallMs: number;
}

/** One side of the load: sends request number `k` (round-robin over its hosts or clients) and checks the answer. */
type Send = (k: number) => Promise<void>;

const HOST_SERVER = 'scale';

async function sampleMemory(gc: () => void, samples: number): Promise<MemorySample> {
  const taken: MemorySample[] = [];
  for (let i = 0; i < samples; i += 1) {
    gc();
    await nextTurn();
    gc();
    const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
    taken.push({ heapUsed, external, arrayBuffers, rss });
  }
  return medianSample(taken);
}

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map((item, i) => work(item, start + i)))));
  }
  return results;
}

function textOf(parts: ReadonlyArray<{ type: string; text?: unknown }> | undefined): string | undefined {
  const part = parts?.find((candidate) => candidate.type === 'text');
  return typeof part?.text === 'string' ? part.text : undefined;
}

/** A host with its one echo tool, ready to call. */
interface ScaleHost {
  readonly host: McpToolHost;
  readonly echo: string;
}

/** `McpToolHost.create` with one trusted Streamable HTTP entry, then `discover()`; checks the revision and the echo tool. */
async function createHost(url: string, revision: WireRevision): Promise<ScaleHost> {
  const host = await McpToolHost.create({ settings: { mcpServers: { [HOST_SERVER]: { httpUrl: url, trust: true } } } });
  try {
    await host.discover();
    const server = host.servers.status().servers.find((candidate) => candidate.name === HOST_SERVER);
    if (server?.protocolVersion !== revision) {
      throw new WireMismatchError(
        `WIRE MISMATCH: McpToolHost negotiated ${server?.protocolVersion ?? 'no revision'} with ${url} on the ${revision} wire (${server?.status ?? 'no server'}${server?.lastError ? `: ${server.lastError}` : ''})`,
      );
    }
    const echo = host.servers.listTools().find((tool) => tool.serverName === HOST_SERVER && tool.originalName === 'echo');
    if (!echo) throw new Error(`McpToolHost did not discover the echo tool of ${url}: ${host.servers.formatStatus()}`);
    return { host, echo: echo.name };
  } catch (error) {
    await host.close().catch(() => undefined);
    throw error;
  }
}

async function connectRaw(url: string, revision: WireRevision, who: string): Promise<SdkHttpEchoClient> {
  const client = await connectSdkHttpEchoClient(url);
  if (client.protocolVersion !== revision) {
    await client.close().catch(() => undefined);
    throw new WireMismatchError(
      `WIRE MISMATCH: ${who} negotiated ${client.protocolVersion ?? 'no revision'} with ${url} on the ${revision} wire`,
    );
  }
  return client;
}

function hostSend(hosts: readonly ScaleHost[], tag: string): Send {
  return async (k) => {
    const { host, echo } = hosts[k % hosts.length] as ScaleHost;
    const message = `${tag} ${k}`;
    const result = await host.callTool({ name: echo, arguments: { message } });
    if (result.isError || textOf(result.parts) !== message)
      throw new Error(`McpToolHost.callTool did not echo '${message}': ${result.display}`);
  };
}

function rawSend(clients: readonly SdkHttpEchoClient[], tag: string): Send {
  return (k) => (clients[k % clients.length] as SdkHttpEchoClient).call(`${tag} ${k}`);
}

/**
 * Open loop: request `first + k` is sent at `start + k x 1000 / rate` whatever the earlier ones
 * do; its latency runs from that scheduled time to its checked answer (a late send, the event
 * loop being busy, counts against the side that kept it busy). Resolves once every answer is in;
 * rejects with the first wrong answer.
 */
async function driveOpenLoop(send: Send, rate: number, durationMs: number, first: number): Promise<number[]> {
  const times = openLoopSchedule(rate, durationMs, performance.now());
  const latencies: number[] = new Array<number>(times.length).fill(0);
  const pending: Promise<void>[] = [];
  await new Promise<void>((resolve) => {
    let next = 0;
    const tick = (): void => {
      const now = performance.now();
      while (next < times.length && (times[next] as number) <= now) {
        const k = next;
        const scheduled = times[k] as number;
        pending.push(
          send(first + k).then(() => {
            latencies[k] = performance.now() - scheduled;
          }),
        );
        next += 1;
      }
      if (next >= times.length) resolve();
      else setTimeout(tick, Math.max(0, (times[next] as number) - performance.now()));
    };
    tick();
  });
  const failed = (await Promise.allSettled(pending)).find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return latencies;
}

interface SideLoad {
  readonly label: string;
  readonly send: Send;
  readonly latencies: number[];
  /** The timed latencies of each slice round. */
  readonly rounds: number[][];
  cpuUs: number;
  sent: number;
  wallMs: number;
  plannedMs: number;
}

async function runSlice(side: SideLoad, rate: number, durationMs: number, timed: boolean): Promise<void> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const latencies = await driveOpenLoop(side.send, rate, durationMs, side.sent);
  const wallMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  side.sent += latencies.length;
  if (timed) {
    side.latencies.push(...latencies);
    side.rounds.push(latencies);
    side.cpuUs += cpu.user + cpu.system;
    side.wallMs += wallMs;
    side.plannedMs += durationMs;
  }
}

function closeAll(closers: ReadonlyArray<() => Promise<unknown>>): Promise<unknown> {
  return Promise.all(closers.map((close) => close().catch(() => undefined)));
}

/**
 * One revision of `pnpm bench:scale`: start `3 x hosts + 2` Streamable HTTP echo servers (one
 * child process, so this process holds only clients); warm the code of both sides up on the two
 * spare servers; then, each measured as the median of GC'd `process.memoryUsage()` samples
 * (heap used + external), create `hosts` raw SDK clients (connected, list-change subscription
 * where toolhost opens one, tools listed), then `hosts` McpToolHosts (one trusted server entry
 * each, `discover()`ed), each on its own server; per-host memory is each side's growth / hosts.
 * Then `hosts` control clients (raw again, not measured for memory), and open-loop load at `rate`
 * requests per second per side, round-robin, in slices whose side order changes every round;
 * every answer is checked. Every host and client must negotiate `revision`.
 */
export async function runScale(options: RunScaleOptions): Promise<ScaleRun> {
  const { revision, hosts: count, rate, durationMs } = options;
  const warmupMs = options.warmupMs ?? 2000;
  const sliceMs = options.sliceMs ?? 500;
  const samples = options.memorySamples ?? 5;
  const concurrency = options.connectConcurrency ?? 20;
  const goal = options.goal ?? SCALE_GOAL;
  const report = options.onProgress ?? (() => undefined);
  const collectBetweenSlices = options.collectBetweenSlices ?? true;
  if (Math.round((rate * Math.min(sliceMs, durationMs)) / 1000) < 1) {
    throw new RangeError(
      `no request fits in a slice: ${rate} req/s for ${Math.min(sliceMs, durationMs)} ms; raise --rate, --slice or --duration`,
    );
  }
  const gc = getGc();
  const environment = { node: process.version, cpus: cpus().length, loadAverage: loadavg() };
  const started = performance.now();
  const progress = (line: string) => report(`${((performance.now() - started) / 1000).toFixed(1)} s: ${line}`);
  const closers: Array<() => Promise<unknown>> = [];
  let servers: ScaleServers | undefined;
  try {
    progress(`starting ${3 * count + 2} Streamable HTTP servers in a child process`);
    servers = await startScaleServers(3 * count + 2, revision);
    const urls = servers.urls;
    const hostUrls = urls.slice(0, count);
    const rawUrls = urls.slice(count, 2 * count);
    const controlUrls = urls.slice(2 * count, 3 * count);

    // Load and run every code path of both sides once, then drop them: compiled code is not per host.
    {
      const warmHost = await createHost(urls[3 * count] as string, revision);
      const warmRaw = await connectRaw(urls[3 * count + 1] as string, revision, 'the SDK client');
      for (let k = 0; k < 20; k += 1) {
        await hostSend([warmHost], 'warm')(k);
        await rawSend([warmRaw], 'warm')(k);
      }
      await warmHost.host.close();
      await warmRaw.close();
    }

    progress(`measuring memory: ${count} raw SDK clients, then ${count} McpToolHosts`);
    const empty = await sampleMemory(gc, samples);
    const raw = await inBatches(rawUrls, concurrency, (url) => connectRaw(url, revision, 'the SDK client'));
    closers.push(...raw.map((client) => () => client.close()));
    const withRaw = await sampleMemory(gc, samples);
    const hosts = await inBatches(hostUrls, concurrency, (url) => createHost(url, revision));
    closers.push(
      ...hosts.map(
        ({ host }) =>
          () =>
            host.close(),
      ),
    );
    const withHosts = await sampleMemory(gc, samples);
    const rawPerHost = memoryPerHost(empty, withRaw, count);
    const hostPerHost = memoryPerHost(withRaw, withHosts, count);
    const control = await inBatches(controlUrls, concurrency, (url) => connectRaw(url, revision, 'the SDK control client'));
    closers.push(...control.map((client) => () => client.close()));

    const load = (label: string, send: Send): SideLoad => ({
      label,
      send,
      latencies: [],
      rounds: [],
      cpuUs: 0,
      sent: 0,
      wallMs: 0,
      plannedMs: 0,
    });
    const sides: SideLoad[] = [
      load('McpToolHost.callTool', hostSend(hosts, 'host')),
      load('SDK client.callTool', rawSend(raw, 'raw')),
      load('SDK client.callTool (control)', rawSend(control, 'control')),
    ];
    if (warmupMs > 0) {
      progress(`warm-up: ${rate} req/s for ${warmupMs / 1000} s per side`);
      for (const side of sides) await runSlice(side, rate, warmupMs, false);
    }
    const rounds = Math.ceil(durationMs / sliceMs);
    progress(
      `timed load: ${rate} req/s for ${durationMs / 1000} s per side, ${rounds} round${rounds === 1 ? '' : 's'} of ${sliceMs} ms slices`,
    );
    for (const [round, order] of sliceSchedule(sides.length, rounds).entries()) {
      const length = Math.min(sliceMs, durationMs - round * sliceMs);
      for (const index of order) {
        // Every slice starts from a collected heap, so a side is not charged for a full collection
        // of the garbage the slices before it left (untimed; a side's own garbage still collects in its slice).
        if (collectBetweenSlices) {
          gc();
          await nextTurn();
        }
        await runSlice(sides[index] as SideLoad, rate, length, true);
      }
    }
    const side = (loaded: SideLoad): ScaleSide => ({
      label: loaded.label,
      latency: latencySummary(loaded.latencies),
      cpuUsPerRequest: loaded.cpuUs / loaded.latencies.length,
      sliceStretch: loaded.wallMs / loaded.plannedMs,
    });
    const [hostSide, rawSide, controlSide] = sides.map(side) as [ScaleSide, ScaleSide, ScaleSide];
    // Still on the claimed revision after the load (a reconnect could have landed elsewhere).
    for (const { host } of hosts) {
      const negotiated = host.servers.status().servers[0]?.protocolVersion;
      if (negotiated !== revision)
        throw new WireMismatchError(
          `WIRE MISMATCH: McpToolHost is on ${negotiated ?? 'no revision'} after the load on the ${revision} wire`,
        );
    }
    const overRawBytes = hostPerHost.bytes - rawPerHost.bytes;
    const ratioOfP99 = p99Ratio(hostSide.latency, rawSide.latency);
    return {
      revision,
      hosts: count,
      rate,
      durationMs,
      sliceMs,
      environment: { ...environment, loadAverageAtEnd: loadavg() },
      memory: { empty, raw: rawPerHost, host: hostPerHost, overRawBytes, samples },
      latency: {
        host: hostSide,
        raw: rawSide,
        control: controlSide,
        p99Ratio: ratioOfP99,
        controlP99Ratio: p99Ratio(controlSide.latency, rawSide.latency),
        roundP99Ratio: pairedP99Ratio((sides[0] as SideLoad).rounds, (sides[1] as SideLoad).rounds),
        controlRoundP99Ratio: pairedP99Ratio((sides[2] as SideLoad).rounds, (sides[1] as SideLoad).rounds),
      },
      goal,
      verdict: judgeScale(goal, overRawBytes, ratioOfP99),
      wallMs: performance.now() - started,
    };
  } finally {
    progress('closing');
    await closeAll(closers);
    await servers?.close();
  }
}
