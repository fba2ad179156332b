import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { connectClient, type OpenedConnection } from '../connect-client.js';
import { ConnectionError } from '../connection-error.js';
import type { ConnectionRequest } from '../connection-request.js';

type RequestId = string | number;

/** Limits of the stdio processes of a pool, resolved. */
export interface StdioLimits {
  /** Most stdio processes alive at once, across every host of the pool. */
  readonly maxProcesses: number;
  /** A process without a request in flight for this long is closed. */
  readonly idleMs: number;
  /** Longest wait for a place when every process is busy. */
  readonly acquireTimeoutMs: number;
}

/** One stdio process of the pool (or a place reserved for one being started). */
interface ProcessRecord {
  readonly serverName: string;
  /** `starting` until connected; `open`; `closing` once the pool (or its host) closes it. */
  state: 'starting' | 'open' | 'closing';
  /** Parks the server in its host (see `ConnectionRequest.park`); set once connected. */
  park: ((reason: string) => Promise<boolean>) | undefined;
  /** Requests the host sent that the server has not answered. */
  readonly outgoing: Set<RequestId>;
  /** Requests the server sent (elicitation, sampling, roots) the host has not answered. */
  readonly incoming: Set<RequestId>;
  /** Resources the host is subscribed to: a process that follows one is never idle. */
  readonly subscriptions: Set<string>;
  /** Last message either way, in epoch ms. */
  lastUsed: number;
  /** True once the record left the pool. */
  released: boolean;
}

/** Someone waiting for a place. */
interface Waiter {
  readonly serverName: string;
  readonly grant: (record: ProcessRecord) => void;
}

function isBusy(record: ProcessRecord): boolean {
  return record.outgoing.size + record.incoming.size + record.subscriptions.size > 0;
}

function seconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/**
 * The stdio processes of every host sharing a pool: at most `maxProcesses` alive at once. When the
 * bound is reached, a new process takes the place of the least recently used idle one (no request
 * in flight either way, no resource subscription), whose host parks the server (it starts again on
 * its next use); when every process is busy, the new one waits up to `acquireTimeoutMs` and then
 * fails with `CONNECTION_POOL_FULL`. Processes idle for `idleMs` are closed by an unref'd timer.
 */
export class StdioProcesses {
  readonly #limits: StdioLimits;
  readonly #records = new Set<ProcessRecord>();
  readonly #waiters: Waiter[] = [];
  #evicting = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(limits: StdioLimits) {
    this.#limits = limits;
  }

  /** Processes alive (or starting, or closing) now. */
  get size(): number {
    return this.#records.size;
  }

  /** Processes with a request in flight (or a subscription), or still starting. */
  get busy(): number {
    let count = 0;
    for (const record of this.#records) if (record.state === 'starting' || isBusy(record)) count += 1;
    return count;
  }

  /** Start a stdio server for one host once there is a place for it. */
  async open(request: ConnectionRequest): Promise<OpenedConnection> {
    const record = await this.#acquire(request);
    let connection: OpenedConnection;
    try {
      connection = await connectClient(request);
    } catch (error) {
      this.#release(record);
      throw error;
    }
    const transport = request.client.transport;
    if (!transport) {
      await connection.close().catch(() => undefined);
      this.#release(record);
      throw new Error(`the client of MCP server '${request.serverName}' has no transport after connecting`);
    }
    this.#track(record, transport);
    record.park = request.park;
    record.lastUsed = Date.now();
    record.state = 'open';
    this.#startTimer();
    return {
      transportType: connection.transportType,
      stderrTail: connection.stderrTail,
      pid: connection.pid,
      close: async () => {
        record.state = 'closing';
        try {
          await connection.close();
        } finally {
          this.#release(record);
        }
      },
    };
  }

  /** A place now, or once one frees up (bounded by `acquireTimeoutMs` and the attempt's signal). */
  #acquire(request: ConnectionRequest): Promise<ProcessRecord> {
    const { serverName, signal } = request;
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.#records.size < this.#limits.maxProcesses && this.#waiters.length === 0) return Promise.resolve(this.#reserve(serverName));
    return new Promise<ProcessRecord>((resolve, reject) => {
      const { maxProcesses, acquireTimeoutMs } = this.#limits;
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const index = this.#waiters.indexOf(waiter);
        if (index >= 0) this.#waiters.splice(index, 1);
      };
      const waiter: Waiter = {
        serverName,
        grant: (record) => {
          done();
          resolve(record);
        },
      };
      const onAbort = (): void => {
        done();
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new ConnectionError({
            code: 'CONNECTION_POOL_FULL',
            serverName,
            message:
              `MCP server "${serverName}" could not start: all ${maxProcesses} stdio processes of the connection pool ` +
              `(maxProcesses ${maxProcesses}) were busy with requests and none became idle within ${acquireTimeoutMs} ms. ` +
              'Try again when a call has finished, or create the pool with a higher maxProcesses.',
          }),
        );
      }, acquireTimeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiters.push(waiter);
      this.#pump();
    });
  }

  #reserve(serverName: string): ProcessRecord {
    const record: ProcessRecord = {
      serverName,
      state: 'starting',
      park: undefined,
      outgoing: new Set(),
      incoming: new Set(),
      subscriptions: new Set(),
      lastUsed: Date.now(),
      released: false,
    };
    this.#records.add(record);
    return record;
  }

  #release(record: ProcessRecord): void {
    if (record.released) return;
    record.released = true;
    this.#records.delete(record);
    if (this.#records.size === 0) this.#stopTimer();
    this.#pump();
  }

  /** Give free places to waiters, and make room for the others by closing least recently used idle processes. */
  #pump(): void {
    while (this.#waiters.length > 0 && this.#records.size < this.#limits.maxProcesses) {
      const waiter = this.#waiters[0] as Waiter;
      waiter.grant(this.#reserve(waiter.serverName));
    }
    let needed = this.#waiters.length - this.#evicting;
    while (needed > 0) {
      const victim = this.#leastRecentlyUsedIdle();
      if (!victim) return;
      needed -= 1;
      const idleMs = Date.now() - victim.lastUsed;
      void this.#evict(
        victim,
        `MCP server "${victim.serverName}" was closed by the connection pool after ${seconds(idleMs)} s idle, to make room for ` +
          `another server (maxProcesses ${this.#limits.maxProcesses}); it starts again on its next use.`,
      );
    }
  }

  #leastRecentlyUsedIdle(): ProcessRecord | undefined {
    let found: ProcessRecord | undefined;
    for (const record of this.#records) {
      if (record.state !== 'open' || isBusy(record) || !record.park) continue;
      if (!found || record.lastUsed < found.lastUsed) found = record;
    }
    return found;
  }

  /** Have the process's host park its server; the place frees when the process is gone. */
  async #evict(record: ProcessRecord, reason: string): Promise<void> {
    record.state = 'closing';
    this.#evicting += 1;
    let parked = false;
    try {
      parked = (await record.park?.(reason)) ?? false;
    } catch {
      parked = false;
    } finally {
      this.#evicting -= 1;
    }
    if (!parked && !record.released) {
      // Not connected over this process right now (still discovering): it stays, as if just used.
      record.state = 'open';
      record.lastUsed = Date.now();
    }
    this.#pump();
  }

  /** Follow the messages of a connected process: requests in flight either way, subscriptions, last use. */
  #track(record: ProcessRecord, transport: Transport): void {
    const touched = (): void => {
      record.lastUsed = Date.now();
      if (!isBusy(record)) this.#pump();
    };
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      observeOutgoing(record, message);
      touched();
      try {
        await send(message, options);
      } catch (error) {
        if ('method' in message && 'id' in message) {
          record.outgoing.delete(message.id);
          touched();
        }
        throw error;
      }
    };
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      observeIncoming(record, message);
      touched();
      deliver?.call(transport, message, extra);
    };
    const closed = transport.onclose;
    transport.onclose = () => {
      // The process ended by itself: its place frees now (the host's close will find it released).
      this.#release(record);
      closed?.call(transport);
    };
  }

  #startTimer(): void {
    if (this.#timer || !Number.isFinite(this.#limits.idleMs)) return;
    const period = Math.max(25, Math.min(this.#limits.idleMs / 4, 5_000));
    this.#timer = setInterval(() => this.#closeIdle(), period);
    this.#timer.unref?.();
  }

  #stopTimer(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #closeIdle(): void {
    const now = Date.now();
    for (const record of this.#records) {
      if (record.state !== 'open' || isBusy(record) || !record.park) continue;
      const idleMs = now - record.lastUsed;
      if (idleMs < this.#limits.idleMs) continue;
      void this.#evict(
        record,
        `MCP server "${record.serverName}" was closed by the connection pool after ${seconds(idleMs)} s idle ` +
          `(idleMs ${this.#limits.idleMs}); it starts again on its next use.`,
      );
    }
  }
}

function paramOf(message: JSONRPCMessage, key: string): unknown {
  const params = 'params' in message ? (message.params as Record<string, unknown> | undefined) : undefined;
  return params?.[key];
}

function observeOutgoing(record: ProcessRecord, message: JSONRPCMessage): void {
  if ('method' in message) {
    // A 2026-07-28 `subscriptions/listen` stays open for the connection's life: a channel, not work in flight.
    if ('id' in message && message.method !== 'subscriptions/listen') record.outgoing.add(message.id);
    if (message.method === 'notifications/cancelled') {
      const requestId = paramOf(message, 'requestId');
      if (typeof requestId === 'string' || typeof requestId === 'number') record.outgoing.delete(requestId);
    }
    const uri = paramOf(message, 'uri');
    if (message.method === 'resources/subscribe' && typeof uri === 'string') record.subscriptions.add(uri);
    if (message.method === 'resources/unsubscribe' && typeof uri === 'string') record.subscriptions.delete(uri);
    return;
  }
  // An answer to one of the server's requests.
  if ('id' in message && message.id !== undefined) record.incoming.delete(message.id);
}

function observeIncoming(record: ProcessRecord, message: JSONRPCMessage): void {
  if ('method' in message) {
    if ('id' in message) record.incoming.add(message.id);
    if (message.method === 'notifications/cancelled') {
      const requestId = paramOf(message, 'requestId');
      if (typeof requestId === 'string' || typeof requestId === 'number') record.incoming.delete(requestId);
    }
    return;
  }
  if ('id' in message && message.id !== undefined) record.outgoing.delete(message.id);
}
