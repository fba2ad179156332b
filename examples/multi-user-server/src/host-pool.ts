// One McpToolHost per user, created on the user's first request and kept in a bounded LRU: at most
// `maxHosts` live hosts; when a new user needs one, the least recently used host that is not
// serving a request is closed; a host idle for `idleMs` is closed too. A closed host's user
// simply gets a new one on the next request: everything that must survive (tokens, approvals,
// tasks, calls waiting for a decision) is in the stores, not in the host.
import type { ConfirmationRequest, HostSettings, McpToolHost } from '@toolhost/host';
import { McpToolHost as Host } from '@toolhost/host';
import { createKeyvStores, type KeyvStores, type StoresEncryption } from '@toolhost/stores';
import type { Keyv } from 'keyv';

/** A user's host while one request uses it. */
export interface HostLease {
  readonly host: McpToolHost;
  readonly stores: KeyvStores;
  /** Wait for the host's confirmation question about `toolCallId` (registered before the call starts). */
  onConfirmation(toolCallId: string, listener: (request: ConfirmationRequest) => void): () => void;
  /** Give the host back (every lease must be released once). */
  release(): void;
}

/** Thrown when every live host is serving a request and none may be closed for a new user. */
export class PoolFullError extends Error {}

interface Entry {
  readonly user: string;
  readonly ready: Promise<{ host: McpToolHost; stores: KeyvStores }>;
  readonly listeners: Map<string, (request: ConfirmationRequest) => void>;
  leases: number;
  lastUsed: number;
  idleTimer: NodeJS.Timeout | undefined;
  closing: boolean;
}

/** Options of {@link HostPool}. */
export interface HostPoolOptions {
  /** The process's Keyv (every user's stores). */
  readonly keyv: Keyv;
  /** Token encryption; `undefined` stores tokens in plain text (`--unencrypted-dev`). */
  readonly encryption: StoresEncryption | undefined;
  /** The MCP servers every user gets. */
  readonly settings: HostSettings;
  readonly maxHosts: number;
  readonly idleMs: number;
  /**
   * Told when a host is opened or closed (for logs); an opened host comes with its discovery
   * `summary` (what the model gets, each server skipped and why).
   */
  readonly onEvent?: (event: {
    readonly kind: 'opened' | 'closed';
    readonly user: string;
    readonly why?: string;
    readonly summary?: string;
  }) => void;
}

/** The per-user hosts. */
export class HostPool {
  readonly #options: HostPoolOptions;
  /** In least-recently-used order (a Map keeps insertion order: a used entry is moved to the end). */
  readonly #entries = new Map<string, Entry>();
  readonly #closing = new Set<Promise<void>>();
  #closed = false;

  constructor(options: HostPoolOptions) {
    this.#options = options;
  }

  /** How many hosts are live. */
  get size(): number {
    return this.#entries.size;
  }

  /** The stores of `user` (cheap; no host needed). */
  storesFor(user: string): KeyvStores {
    const { keyv, encryption } = this.#options;
    return createKeyvStores({ keyv, user, ...(encryption ? { encryption } : { unencrypted: true }) });
  }

  /**
   * The host of `user`, created (and its servers discovered) on first use.
   * @throws PoolFullError when `maxHosts` hosts are all serving requests
   */
  async acquire(user: string): Promise<HostLease> {
    if (this.#closed) throw new PoolFullError('The server is shutting down.');
    let entry = this.#entries.get(user);
    if (entry === undefined) {
      this.#makeRoom();
      entry = this.#open(user);
    } else {
      // Most recently used goes last.
      this.#entries.delete(user);
      this.#entries.set(user, entry);
    }
    entry.leases += 1;
    entry.lastUsed = Date.now();
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    entry.idleTimer = undefined;
    let host: McpToolHost;
    let stores: KeyvStores;
    try {
      ({ host, stores } = await entry.ready);
    } catch (error) {
      entry.leases -= 1;
      throw error;
    }
    let released = false;
    const current = entry;
    return {
      host,
      stores,
      onConfirmation: (toolCallId, listener) => {
        current.listeners.set(toolCallId, listener);
        return () => current.listeners.delete(toolCallId);
      },
      release: () => {
        if (released) return;
        released = true;
        this.#release(current);
      },
    };
  }

  /** Close every host (on shutdown). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const entry of [...this.#entries.values()]) this.#retire(entry, 'shutdown');
    await Promise.allSettled([...this.#closing]);
  }

  #open(user: string): Entry {
    const listeners = new Map<string, (request: ConfirmationRequest) => void>();
    const stores = this.storesFor(user);
    const ready = (async () => {
      const host = await Host.create({
        settings: this.#options.settings,
        stores: { tokens: stores.tokens, approvals: stores.approvals, tasks: stores.tasks },
        // A call that needs the user's decision waits (PENDING) instead of being refused; the
        // server answers the question through host.confirmations once the user decided.
        deferConfirmations: true,
        clientInfo: { name: 'toolhost-multi-user-server', version: '0.0.0' },
      });
      host.on('confirmation-pending', (request) => listeners.get(request.toolCallId)?.(request));
      const report = await host.discover();
      this.#options.onEvent?.({ kind: 'opened', user, summary: report.summary });
      return { host, stores };
    })();
    const entry: Entry = { user, ready, listeners, leases: 0, lastUsed: Date.now(), idleTimer: undefined, closing: false };
    this.#entries.set(user, entry);
    // A host that failed to start is forgotten: the next request tries again.
    ready.catch(() => {
      if (this.#entries.get(user) === entry) this.#entries.delete(user);
    });
    return entry;
  }

  /** Close least recently used idle hosts until there is room for one more. */
  #makeRoom(): void {
    if (this.#entries.size < this.#options.maxHosts) return;
    for (const entry of this.#entries.values()) {
      if (entry.leases === 0) {
        this.#retire(entry, 'evicted: more users than --max-hosts');
        if (this.#entries.size < this.#options.maxHosts) return;
      }
    }
    throw new PoolFullError(`All ${this.#options.maxHosts} hosts are serving requests (--max-hosts); try again shortly.`);
  }

  #release(entry: Entry): void {
    entry.leases -= 1;
    entry.lastUsed = Date.now();
    if (entry.leases > 0 || entry.closing) return;
    entry.idleTimer = setTimeout(() => {
      if (entry.leases === 0) this.#retire(entry, 'idle');
    }, this.#options.idleMs);
    entry.idleTimer.unref();
  }

  #retire(entry: Entry, why: string): void {
    if (entry.closing) return;
    entry.closing = true;
    if (entry.idleTimer) clearTimeout(entry.idleTimer);
    if (this.#entries.get(entry.user) === entry) this.#entries.delete(entry.user);
    const done = entry.ready
      .then(({ host }) => host.close())
      .then(
        () => this.#options.onEvent?.({ kind: 'closed', user: entry.user, why }),
        () => undefined,
      )
      .finally(() => this.#closing.delete(done));
    this.#closing.add(done);
  }
}
