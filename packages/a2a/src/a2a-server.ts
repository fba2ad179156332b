import { randomBytes, randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import type { AgentCard, Message, MessageSendParams, Task, TaskIdParams, TaskState, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { DefaultRequestHandler, JsonRpcTransportHandler, type ServerCallContext } from '@a2a-js/sdk/server';
import type { McpToolHost } from '@toolhost/host';
import { formatDuration, ToolhostAgentExecutor, type MessagePlan } from './agent-executor.js';
import type { AgentModel } from './agent-model.js';
import { BoundedTaskStore, type A2aTaskStore } from './bounded-task-store.js';
import { DEVELOPMENT_TOOL_EXTENSION_URI, toWireSlashCommand, type ExecuteSlashCommandResponse } from './development-tool.js';
import { MAX_PUSH_CONFIGS_PER_TASK, PushConfigStore } from './push-config-store.js';
import { checkWebhookUrl, GuardedPushNotificationSender, type WebhookPolicy } from './push-notifications.js';
import { RequestGuard } from './request-guard.js';
import { checkMessage, checkWorkspacePath, RPC_ERRORS, RpcError } from './validate-message.js';

/** Where the agent card is served (A2A 0.3). */
export const AGENT_CARD_PATH = '/.well-known/agent-card.json';

/** Default cap of one request body, in bytes (1 MiB). */
export const DEFAULT_MAX_REQUEST_BYTES = 1_048_576;

/** Default number of tool rounds one message may cause. */
export const DEFAULT_MAX_TOOL_ROUNDS = 10;

/** Default number of finished tasks kept (and of conversations without a running task). */
export const DEFAULT_MAX_FINISHED_TASKS = 200;

/** Default time a finished task (and a conversation without a running task) is kept: 1 hour. */
export const DEFAULT_FINISHED_TASK_TTL_MS = 3_600_000;

/** Default number of messages kept in one task's history. */
export const DEFAULT_MAX_TASK_HISTORY = 1000;

/** Default number of tasks that may run or wait for a confirmation at once. */
export const DEFAULT_MAX_LIVE_TASKS = 100;

/** Default time a tool call waits for the client's answer to its confirmation: 30 minutes. */
export const DEFAULT_CONFIRMATION_TIMEOUT_MS = 1_800_000;

/** Options of {@link createA2aServer}. */
export interface A2aServerOptions<TItem, TTool, TResponse, TToolResults> {
  /**
   * The MCP host, discovered, created with `deferConfirmations: true` so that a tool call that
   * needs the user waits for the client's answer (without it, such calls are refused).
   * The server never closes it.
   */
  readonly host: McpToolHost<TTool, TResponse, TToolResults>;
  /** The model side of the agent loop, for the same vendor as the host's adapter. */
  readonly model: AgentModel<TItem, TTool, TResponse, TToolResults>;
  /** What the agent card says about the agent. */
  readonly card?: {
    /** @default 'toolhost agent' */
    readonly name?: string;
    /** @default a sentence on MCP tools and the development-tool extension */
    readonly description?: string;
    /** The agent's version. @default '0.1.0' */
    readonly version?: string;
    /** The JSON-RPC endpoint to advertise. @default the listening address (`http://127.0.0.1:<port>/`), or the request's `Host` */
    readonly url?: string;
  };
  /**
   * The token every JSON-RPC request must carry as `Authorization: Bearer <token>`: without it
   * the answer is HTTP 401 and nothing runs. The agent card declares the scheme
   * (`securitySchemes.bearer`); the agent card and the static files need no token.
   * Without this option a token is generated (32 random bytes, base64url) when the server is
   * created: read it from {@link A2aServer.bearerToken} and hand it to the user once (print it,
   * or a URL with `#token=<token>` for the web chat), as notebook servers do.
   * At least 8 characters, no spaces.
   *
   * `false` turns authentication off: then ANY program on this machine (and, through
   * `allowedOrigins`, the pages you allowed) can run the host's tools, including those of
   * trusted servers, which run without asking. Only for tests, or behind an HTTP server of your
   * own that authenticates every request before it reaches {@link A2aServer.requestListener}.
   * @default a generated token
   */
  readonly bearerToken?: string | false;
  /**
   * Host names clients use to reach the agent, besides `localhost`, `127.0.0.1`, `::1` and the
   * address given to {@link A2aServer.listen}: a request whose `Host` header names anything else
   * gets HTTP 403 before any work (this defeats DNS rebinding: a web page whose own name was
   * re-pointed at this machine sends that name). An entry with a port (`agent.example.com:8443`)
   * allows that port only. Needed when the agent is reached by a name (a reverse proxy, your own
   * server around {@link A2aServer.requestListener}) or listens on `0.0.0.0`.
   * @default none
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins (`https://app.example.com`) of web pages served elsewhere that may call the agent:
   * they get CORS headers (preflights answered). A request from any other web page (an `Origin`
   * header that is neither the agent's own origin nor listed) gets HTTP 403 before any work, even
   * a "simple" `text/plain` POST that browsers send without a preflight. Requests without
   * `Origin` (programs, not browsers) pass this check and still need the token.
   * @default none: only pages the agent serves itself (`staticDir`)
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * Where tasks are kept (a database, for tasks that outlive the process): every task is saved
   * there and stays as long as that store keeps it. Without it tasks are kept in memory, and
   * finished ones only within `limits.maxFinishedTasks` and `limits.finishedTaskTtlMs`.
   * @default in memory, bounded
   */
  readonly taskStore?: A2aTaskStore;
  /** Limits. Every one is a positive integer. */
  readonly limits?: {
    /** Largest request body, in bytes; a larger one gets a JSON-RPC error (HTTP 413). @default 1048576 */
    readonly maxRequestBytes?: number;
    /** Tool rounds one message may cause before the agent stops asking the model. @default 10 */
    readonly maxToolRounds?: number;
    /**
     * Finished tasks kept in memory (without `taskStore`): beyond it, the one that finished first
     * is forgotten (`tasks/get` answers TaskNotFound). Conversations (contexts) without a running
     * task are kept under the same cap; a message to a forgotten context starts a new conversation.
     * @default 200
     */
    readonly maxFinishedTasks?: number;
    /** How long a finished task (and a conversation without a running task) is kept, in milliseconds. @default 3600000 (1 hour) */
    readonly finishedTaskTtlMs?: number;
    /**
     * Messages kept in one task's history (what `tasks/get` and push notifications carry): the
     * first, the request, and the newest ones. Every tool call update and every progress report
     * of a running tool is a message. At least 2. @default 1000
     */
    readonly maxTaskHistory?: number;
    /**
     * Tasks that may run or wait for a confirmation at once; a message (or `command/execute`)
     * that would start one more gets a JSON-RPC error naming this limit until one ends.
     * @default 100
     */
    readonly maxLiveTasks?: number;
    /**
     * How long a tool call waits for the client's answer to its confirmation (the task in
     * `input-required`): then the host's pending confirmation is cancelled, the call ends
     * `CANCELLED` without running, and the task ends `canceled` with a message saying nobody
     * answered in time (pushed to its webhooks).
     * @default 1800000 (30 minutes)
     */
    readonly confirmationTimeoutMs?: number;
  };
  /**
   * Push notifications to client webhooks (`tasks/pushNotificationConfig/set`, or
   * `configuration.pushNotificationConfig` of a message): `false` turns them off; otherwise only
   * `http(s)` URLs whose host resolves to public addresses are accepted, unless
   * `allowLoopback` (a client on the same machine) or `allowPrivateNetwork`.
   * @default on, public addresses only
   */
  readonly pushNotifications?: false | (WebhookPolicy & { /** Time allowed for one POST. @default 5000 */ readonly timeoutMs?: number });
  /** A folder of static files served at `/` (GET), such as a web client. @default none */
  readonly staticDir?: string;
  /** Told about errors that reach no client (a webhook that failed, a listener that threw). The server never prints. */
  readonly onError?: (error: Error) => void;
}

/** An A2A server around a host; see {@link createA2aServer}. */
export interface A2aServer {
  /** The agent card (its `url` is the listening address once {@link A2aServer.listen} resolved). */
  readonly agentCard: AgentCard;
  /**
   * The bearer token clients must send (the one given in the options, or the one generated);
   * undefined with `bearerToken: false`. A secret: show it to the user once, never log it.
   */
  readonly bearerToken: string | undefined;
  /** The Node.js request listener, to mount the agent in an HTTP server of your own. */
  readonly requestListener: (request: IncomingMessage, response: ServerResponse) => void;
  /** Listen on `hostname` (default `127.0.0.1`; its name is allowed as `Host`) and `port` (default 0: any free port). */
  listen(options?: { readonly port?: number; readonly hostname?: string }): Promise<{ readonly url: string; readonly port: number }>;
  /** Stop listening and cancel running tasks; the host stays open. */
  close(): Promise<void>;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

type JsonRpcId = string | number | null;

interface JsonRpcRequest {
  readonly jsonrpc: '2.0';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: unknown;
}

const FINAL_STATES: ReadonlySet<TaskState> = new Set<TaskState>(['completed', 'failed', 'canceled', 'rejected']);

/** The SDK's request handler, telling the executor about a cancellation that reached no open stream. */
class ToolhostRequestHandler extends DefaultRequestHandler {
  readonly #onCancelled: (task: Task) => void;

  constructor(
    card: AgentCard,
    store: A2aTaskStore,
    executor: ToolhostAgentExecutor<unknown, unknown, unknown, unknown>,
    push: { store: PushConfigStore; sender: GuardedPushNotificationSender } | undefined,
    onCancelled: (task: Task) => void,
  ) {
    super(card, store, executor, undefined, push?.store, push?.sender);
    this.#onCancelled = onCancelled;
  }

  override async cancelTask(params: TaskIdParams, context?: ServerCallContext): Promise<Task> {
    const task = await super.cancelTask(params, context);
    this.#onCancelled(task);
    return task;
  }
}

/**
 * An A2A server (JSON-RPC over HTTP, A2A 0.3, built on the official `@a2a-js/sdk`) around an
 * `McpToolHost` and a model: the agent card at `/.well-known/agent-card.json` with streaming and
 * the development-tool extension, `message/stream` and `message/send` with every tool call
 * lifecycle step as a `TaskStatusUpdateEvent`, confirmations that end the stream with
 * `input-required` and are answered by a later message, `tasks/get`, `tasks/cancel`,
 * `tasks/resubscribe`, push notifications, and the extension's `commands/get` and
 * `command/execute`. Bad input gets a JSON-RPC error and changes nothing.
 *
 * Secure by default: every JSON-RPC request needs the bearer token (generated unless given), a
 * request whose `Host` is not a name of the agent or whose `Origin` is another web page's is
 * refused before any work, and memory is bounded (finished tasks, tasks running at once, and
 * confirmations nobody answers are capped or expire; see `limits`).
 *
 * @example
 * ```ts
 * import { McpToolHost } from '@toolhost/host';
 * import { createA2aServer, createScriptedModel } from '@toolhost/a2a';
 *
 * const host = await McpToolHost.create({ projectDir: process.cwd(), deferConfirmations: true });
 * await host.discover();
 * const server = createA2aServer({ host, model: createScriptedModel() });
 * const { url } = await server.listen({ port: 41242 });
 * // The generated token, shown once; the web chat reads it from the fragment.
 * console.log(`A2A agent at ${url}#token=${server.bearerToken}`);
 * ```
 */
export function createA2aServer<TItem, TTool, TResponse, TToolResults>(
  options: A2aServerOptions<TItem, TTool, TResponse, TToolResults>,
): A2aServer {
  return new ToolhostA2aServer(options);
}

class ToolhostA2aServer<TItem, TTool, TResponse, TToolResults> implements A2aServer {
  readonly agentCard: AgentCard;
  readonly bearerToken: string | undefined;
  readonly requestListener: (request: IncomingMessage, response: ServerResponse) => void;
  readonly #options: A2aServerOptions<TItem, TTool, TResponse, TToolResults>;
  readonly #executor: ToolhostAgentExecutor<TItem, TTool, TResponse, TToolResults>;
  readonly #store: BoundedTaskStore;
  readonly #push: { store: PushConfigStore; sender: GuardedPushNotificationSender } | undefined;
  readonly #handler: ToolhostRequestHandler;
  readonly #transport: JsonRpcTransportHandler;
  readonly #guard: RequestGuard;
  readonly #maxRequestBytes: number;
  readonly #maxLiveTasks: number;
  readonly #tokenDigest: Buffer | undefined;
  readonly #sockets = new Set<ServerResponse>();
  #server: Server | undefined;
  #closed = false;

  constructor(options: A2aServerOptions<TItem, TTool, TResponse, TToolResults>) {
    this.#options = options;
    const limits = options.limits ?? {};
    const limit = (name: keyof NonNullable<typeof options.limits>, fallback: number): number => {
      const value = limits[name] ?? fallback;
      if (!Number.isSafeInteger(value) || value <= 0)
        throw new TypeError(`limits.${name} must be a positive integer, not ${String(value)}.`);
      return value;
    };
    this.#maxRequestBytes = limit('maxRequestBytes', DEFAULT_MAX_REQUEST_BYTES);
    this.#maxLiveTasks = limit('maxLiveTasks', DEFAULT_MAX_LIVE_TASKS);
    const maxFinishedTasks = limit('maxFinishedTasks', DEFAULT_MAX_FINISHED_TASKS);
    const finishedTaskTtlMs = limit('finishedTaskTtlMs', DEFAULT_FINISHED_TASK_TTL_MS);
    const maxTaskHistory = limit('maxTaskHistory', DEFAULT_MAX_TASK_HISTORY);
    if (maxTaskHistory < 2) throw new TypeError(`limits.maxTaskHistory must be at least 2, not ${maxTaskHistory}.`);
    const token = options.bearerToken === undefined ? randomBytes(32).toString('base64url') : options.bearerToken;
    if (token !== false && (typeof token !== 'string' || !/^[\x21-\x7e]{8,}$/.test(token))) {
      throw new TypeError(
        'bearerToken must be at least 8 characters long, printable ASCII without spaces (or false to turn authentication off).',
      );
    }
    this.bearerToken = token === false ? undefined : token;
    this.#tokenDigest = token === false ? undefined : digest(token);
    this.#guard = new RequestGuard({
      ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
      ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    });
    this.#executor = new ToolhostAgentExecutor({
      host: options.host,
      model: options.model,
      maxToolRounds: limit('maxToolRounds', DEFAULT_MAX_TOOL_ROUNDS),
      confirmationTimeoutMs: limit('confirmationTimeoutMs', DEFAULT_CONFIRMATION_TIMEOUT_MS),
      maxIdleContexts: maxFinishedTasks,
      idleContextTtlMs: finishedTaskTtlMs,
      onDetachedEnd: (event) => {
        this.#recordDetachedEnd(event).catch((error: unknown) => this.#report(error));
      },
      ...(options.onError ? { onError: options.onError } : {}),
    });
    const pushOptions = options.pushNotifications;
    if (pushOptions !== false) {
      const store = new PushConfigStore();
      this.#push = {
        store,
        sender: new GuardedPushNotificationSender({
          store,
          ...(pushOptions ?? {}),
          ...(options.onError ? { onError: options.onError } : {}),
        }),
      };
    }
    this.#store = new BoundedTaskStore({
      ...(options.taskStore ? { backing: options.taskStore } : {}),
      maxFinishedTasks,
      finishedTaskTtlMs,
      maxTaskHistory,
      // A finished task sends no more notifications: its webhooks go with it.
      onForget: (taskId) => this.#push?.store.forget(taskId),
    });
    this.agentCard = buildAgentCard(options, this.#push !== undefined, this.bearerToken !== undefined);
    this.#handler = new ToolhostRequestHandler(
      this.agentCard,
      this.#store,
      this.#executor as unknown as ToolhostAgentExecutor<unknown, unknown, unknown, unknown>,
      this.#push,
      (task) => {
        this.#executor.abandon(task.id);
        if (this.#push) void this.#push.sender.send(task);
      },
    );
    this.#transport = new JsonRpcTransportHandler(this.#handler);
    this.requestListener = (request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        this.#report(error);
        if (!response.headersSent)
          sendJson(response, 500, rpcError(null, RPC_ERRORS.internalError, 'The agent failed to handle the request.'));
        else response.end();
      });
    };
  }

  async listen(options: { readonly port?: number; readonly hostname?: string } = {}): Promise<{ url: string; port: number }> {
    if (this.#server) throw new Error('The A2A server is already listening.');
    const server = createServer(this.requestListener);
    this.#server = server;
    const hostname = options.hostname ?? '127.0.0.1';
    await new Promise<void>((resolvePromise, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, hostname, () => {
        server.off('error', reject);
        resolvePromise();
      });
    });
    const port = (server.address() as AddressInfo).port;
    this.#guard.allowListeningName(hostname);
    const shown = hostname.includes(':') ? `[${hostname}]` : hostname;
    const url = `http://${shown}:${port}/`;
    if (this.#options.card?.url === undefined) (this.agentCard as { url: string }).url = url;
    return { url, port };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#executor.close();
    // Let the final `canceled` events reach the open streams before they are ended.
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 50));
    for (const response of this.#sockets) response.end();
    const server = this.#server;
    if (server) {
      await new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      });
    }
    await this.#push?.sender.drain();
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (this.#closed) {
      request.resume();
      return sendText(response, 503, 'The agent has shut down.');
    }
    // Before any work: a foreign Host (DNS rebinding) or another web page's Origin is refused.
    const refusal = this.#guard.check(request);
    if (refusal) {
      // Nothing of the body is wanted: drop the connection once the answer is out.
      response.setHeader('connection', 'close');
      request.resume();
      return sendText(response, refusal.status, refusal.text);
    }
    const method = request.method ?? 'GET';
    for (const [name, value] of Object.entries(this.#guard.corsHeaders(request, method === 'OPTIONS'))) response.setHeader(name, value);
    if (method === 'OPTIONS') {
      request.resume();
      response.writeHead(204, { allow: 'GET, HEAD, POST, OPTIONS' });
      return void response.end();
    }
    const url = new URL(request.url ?? '/', 'http://agent.invalid');
    if (url.pathname === AGENT_CARD_PATH || url.pathname === '/.well-known/agent.json') {
      if (method !== 'GET' && method !== 'HEAD') return sendText(response, 405, 'Use GET for the agent card.');
      return sendJson(response, 200, this.#cardFor(request));
    }
    if (method === 'POST' && url.pathname === '/') return this.#handleRpc(request, response);
    if ((method === 'GET' || method === 'HEAD') && this.#options.staticDir !== undefined) {
      return serveStatic(this.#options.staticDir, url.pathname, request, response);
    }
    if (method === 'GET' && url.pathname === '/') {
      return sendText(response, 200, `A2A agent (toolhost). Agent card: ${AGENT_CARD_PATH}; JSON-RPC: POST /\n`);
    }
    return sendText(response, 404, 'Not found.');
  }

  #cardFor(request: IncomingMessage): AgentCard {
    if (this.#options.card?.url !== undefined || this.#server) return this.agentCard;
    const host = request.headers.host;
    return host && /^[\w.:[\]-]+$/.test(host) ? { ...this.agentCard, url: `http://${host}/` } : this.agentCard;
  }

  async #handleRpc(request: IncomingMessage, response: ServerResponse): Promise<void> {
    response.setHeader('x-a2a-extensions', DEVELOPMENT_TOOL_EXTENSION_URI);
    if (this.#tokenDigest && !this.#authorised(request)) {
      request.resume();
      response.setHeader('www-authenticate', 'Bearer realm="a2a"');
      return sendJson(
        response,
        401,
        rpcError(
          null,
          RPC_ERRORS.invalidRequest,
          'Unauthorized: this agent needs "Authorization: Bearer <token>" (see securitySchemes in its agent card).',
        ),
      );
    }
    const body = await readBody(request, this.#maxRequestBytes);
    if (body === undefined) {
      return sendJson(
        response,
        413,
        rpcError(
          null,
          RPC_ERRORS.invalidRequest,
          `The request is larger than this agent's limit of ${this.#maxRequestBytes} bytes (limits.maxRequestBytes); nothing was done.`,
        ),
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch (error) {
      return sendJson(
        response,
        200,
        rpcError(null, RPC_ERRORS.parseError, `The request is not JSON: ${error instanceof Error ? error.message : String(error)}`),
      );
    }
    const rpc = readRpcRequest(parsed);
    if (typeof rpc === 'string') {
      const id = isObject(parsed) && isRpcId(parsed['id']) ? (parsed['id'] as JsonRpcId) : null;
      return sendJson(response, 200, rpcError(id, RPC_ERRORS.invalidRequest, rpc));
    }
    const streaming = rpc.method === 'message/stream' || rpc.method === 'tasks/resubscribe';
    let plannedMessageId: string | undefined;
    try {
      switch (rpc.method) {
        case 'commands/get':
          return sendJson(response, 200, {
            jsonrpc: '2.0',
            id: rpc.id,
            result: { commands: this.#options.host.commands.list().map(toWireSlashCommand) },
          });
        case 'command/execute':
          return sendJson(response, 200, { jsonrpc: '2.0', id: rpc.id, result: await this.#executeCommand(rpc.params) });
        case 'message/stream':
        case 'message/send':
          plannedMessageId = await this.#prepareMessage(rpc.params);
          break;
        case 'tasks/pushNotificationConfig/set':
          await this.#checkPushConfigParams(rpc.params);
          break;
        default:
          break;
      }
    } catch (error) {
      const rpcFailure =
        error instanceof RpcError ? error : new RpcError(RPC_ERRORS.internalError, error instanceof Error ? error.message : String(error));
      if (!(error instanceof RpcError)) this.#report(error);
      const answer = rpcError(rpc.id, rpcFailure.code, rpcFailure.message);
      if (streaming) return sendSseError(response, answer);
      return sendJson(response, 200, answer);
    }
    try {
      const result = await this.#transport.handle(rpc);
      if (!isAsyncIterable(result)) return sendJson(response, 200, result);
      await this.#stream(response, result, rpc, rpc.method === 'message/stream');
    } finally {
      // The SDK took the plan when it ran the message; one it refused must not stay behind.
      if (plannedMessageId !== undefined) this.#executor.dropPlan(plannedMessageId);
    }
  }

  /**
   * Record the final event of a task whose stream had ended (nobody answered its confirmation in
   * time, or its run ended while no client listened), as the SDK records a cancellation that
   * reached no open stream: the status, the message in the history, and a push notification.
   */
  async #recordDetachedEnd(event: TaskStatusUpdateEvent): Promise<void> {
    const task = await this.#store.load(event.taskId);
    if (!task || FINAL_STATES.has(task.status.state)) return;
    task.status = event.status;
    if (event.status.message) task.history = [...(task.history ?? []), event.status.message];
    await this.#store.save(task);
    if (this.#push) await this.#push.sender.send(task);
  }

  /** Refuse a message or command that would start one task more than `limits.maxLiveTasks`. */
  #checkLiveTasks(): void {
    const live = this.#executor.liveTasks();
    if (live < this.#maxLiveTasks) return;
    throw new RpcError(
      RPC_ERRORS.invalidRequest,
      `This agent already has ${live} tasks running or waiting for a confirmation, its limit (limits.maxLiveTasks = ${this.#maxLiveTasks}); nothing was started. Answer or cancel one (tasks/cancel), or wait until one ends (a confirmation nobody answers expires after ${formatDuration(this.#options.limits?.confirmationTimeoutMs ?? DEFAULT_CONFIRMATION_TIMEOUT_MS)}).`,
    );
  }

  /** Stream a method's events as SSE; with `drain`, keep consuming after the client left so the task goes on. */
  async #stream(
    response: ServerResponse,
    events: AsyncGenerator<unknown, void, undefined>,
    rpc: JsonRpcRequest,
    drain: boolean,
  ): Promise<void> {
    let connected = true;
    response.writeHead(200, SSE_HEADERS);
    response.flushHeaders();
    this.#sockets.add(response);
    response.on('close', () => {
      connected = false;
      this.#sockets.delete(response);
    });
    try {
      for await (const event of events) {
        if (connected) response.write(`data: ${JSON.stringify(event)}\n\n`);
        else if (!drain) break;
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const code = typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : RPC_ERRORS.internalError;
      if (connected) response.write(`event: error\ndata: ${JSON.stringify(rpcError(rpc.id, code, message))}\n\n`);
    } finally {
      this.#sockets.delete(response);
      if (!response.writableEnded) response.end();
    }
  }

  /**
   * Check a `message/stream` or `message/send` before the SDK sees it, and decide what it asks:
   * anything wrong is a JSON-RPC error and changes nothing (the task, its history and its
   * waiting tool calls stay as they were).
   */
  async #prepareMessage(params: unknown): Promise<string> {
    const checked = checkMessage(params);
    const { message, text, confirmations, workspacePath } = checked;
    const configuration = (params as MessageSendParams).configuration;
    if (configuration !== undefined && !isObject(configuration))
      throw new RpcError(RPC_ERRORS.invalidParams, 'params.configuration must be an object');
    if (configuration?.pushNotificationConfig !== undefined) {
      await this.#checkPushConfig(configuration.pushNotificationConfig, message.taskId);
    }
    let plan: MessagePlan;
    if (message.taskId !== undefined) {
      const taskId = message.taskId;
      const running = this.#executor.taskState(taskId);
      if (!running) {
        const stored = await this.#store.load(taskId);
        if (!stored) throw new RpcError(RPC_ERRORS.taskNotFound, `Task ${taskId} not found.`);
        throw new RpcError(
          RPC_ERRORS.invalidRequest,
          `Task ${taskId} is ${stored.status.state}: a finished task takes no more messages. Continue the conversation with a new message in context ${stored.contextId} (its contextId, no taskId).`,
        );
      }
      if (message.contextId !== undefined && message.contextId !== running.contextId) {
        throw new RpcError(RPC_ERRORS.invalidParams, `Task ${taskId} belongs to context ${running.contextId}, not ${message.contextId}.`);
      }
      if (running.state === 'working') {
        throw new RpcError(
          RPC_ERRORS.invalidRequest,
          `Task ${taskId} is still working; wait for its final event, or cancel it with tasks/cancel.`,
        );
      }
      if (confirmations.length === 0) {
        const waiting = running.waiting.map((call) => call.toolCallId).join(', ');
        throw new RpcError(
          RPC_ERRORS.invalidParams,
          `Task ${taskId} waits for the user's decision on tool call ${waiting}: answer with a DataPart {"tool_call_id": …, "selected_option_id": …}.`,
        );
      }
      const refusal = this.#executor.claim(taskId, confirmations);
      if (refusal) throw new RpcError(RPC_ERRORS.invalidParams, `Cannot confirm: ${refusal[0]?.toUpperCase()}${refusal.slice(1)}.`);
      plan = { kind: 'confirm', confirmations };
    } else {
      if (confirmations.length > 0) {
        throw new RpcError(
          RPC_ERRORS.invalidParams,
          'A ToolCallConfirmation needs the taskId (and contextId) of the task whose tool call waits.',
        );
      }
      if (text.trim() === '') throw new RpcError(RPC_ERRORS.invalidParams, 'The message has no text.');
      if (message.contextId !== undefined) {
        const context = this.#executor.contextInfo(message.contextId);
        if (context.activeTaskId !== undefined) {
          throw new RpcError(
            RPC_ERRORS.invalidRequest,
            `Context ${message.contextId} has task ${context.activeTaskId} running or waiting for a confirmation; answer or cancel it first.`,
          );
        }
      }
      if (workspacePath !== undefined) await checkWorkspacePath(workspacePath);
      // Checked after the last await, so that racing messages cannot all pass it.
      this.#checkLiveTasks();
      const settings = workspacePath !== undefined ? { workspacePath } : {};
      plan = this.#isCommandLine(text) ? { kind: 'command', line: text.trim(), ...settings } : { kind: 'text', text, ...settings };
    }
    this.#executor.plan(message.messageId, plan);
    return message.messageId;
  }

  #isCommandLine(text: string): boolean {
    const name = /^\s*\/(\S+)/.exec(text)?.[1];
    return name !== undefined && this.#options.host.commands.list().some((command) => command.name === name);
  }

  async #checkPushConfigParams(params: unknown): Promise<void> {
    if (!isObject(params) || typeof params['taskId'] !== 'string' || !isObject(params['pushNotificationConfig'])) {
      throw new RpcError(RPC_ERRORS.invalidParams, 'params must be {"taskId": string, "pushNotificationConfig": {"url": string, …}}');
    }
    await this.#checkPushConfig(params['pushNotificationConfig'], params['taskId']);
  }

  /** Check a webhook configuration for `taskId` (undefined: a task about to start). */
  async #checkPushConfig(config: unknown, taskId: string | undefined): Promise<void> {
    if (!this.#push) throw new RpcError(RPC_ERRORS.pushNotificationNotSupported, 'Push notifications are turned off on this agent.');
    if (!isObject(config)) throw new RpcError(RPC_ERRORS.invalidParams, 'pushNotificationConfig must be an object with a url');
    if (config['token'] !== undefined && typeof config['token'] !== 'string')
      throw new RpcError(RPC_ERRORS.invalidParams, 'pushNotificationConfig.token must be a string');
    if (config['id'] !== undefined && (typeof config['id'] !== 'string' || config['id'].length === 0 || config['id'].length > 200))
      throw new RpcError(RPC_ERRORS.invalidParams, 'pushNotificationConfig.id must be a non-empty string of at most 200 characters');
    if (taskId !== undefined && this.#push.store.isFull(taskId, config['id'] as string | undefined)) {
      throw new RpcError(
        RPC_ERRORS.invalidRequest,
        `Task ${taskId} has ${MAX_PUSH_CONFIGS_PER_TASK} push notification configurations, the most one task may have; delete one (tasks/pushNotificationConfig/delete) first.`,
      );
    }
    const policy = this.#options.pushNotifications || {};
    const refusal = await checkWebhookUrl(config['url'], policy);
    if (refusal) {
      const hint = policy.allowLoopback ? '' : ' (a local client needs the agent to allow loopback webhooks)';
      throw new RpcError(
        RPC_ERRORS.invalidParams,
        `Refused push notification url ${JSON.stringify(String(config['url'])).slice(0, 200)}: ${refusal}${hint}.`,
      );
    }
  }

  /** `command/execute`: start a slash command as a task of its own, whose output streams like any task's. */
  async #executeCommand(params: unknown): Promise<ExecuteSlashCommandResponse> {
    if (!isObject(params)) throw new RpcError(RPC_ERRORS.invalidParams, 'params must be {"command_path": string[], "args": string}');
    const path = params['command_path'];
    const args = params['args'] ?? '';
    if (
      !Array.isArray(path) ||
      path.length === 0 ||
      path.length > 8 ||
      !path.every((word) => typeof word === 'string' && /^[^\s/]\S*$/.test(word))
    ) {
      throw new RpcError(
        RPC_ERRORS.invalidParams,
        'command_path must be a non-empty array of command words without spaces, e.g. ["mcp", "desc"]',
      );
    }
    if (typeof args !== 'string') throw new RpcError(RPC_ERRORS.invalidParams, 'args must be a string');
    const words = path as string[];
    const known = this.#options.host.commands.list().map((command) => command.name);
    if (!known.includes(words[0]!)) {
      return {
        execution_id: '',
        status: 'FAILED_TO_START',
        message: `There is no /${words[0]} command; commands/get lists them (${known.map((name) => `/${name}`).join(', ')}).`,
      };
    }
    const line = `/${words.join(' ')}${args.trim() ? ` ${args.trim()}` : ''}`;
    this.#checkLiveTasks();
    const messageId = randomUUID();
    this.#executor.plan(messageId, { kind: 'command', line });
    const message: Message = { kind: 'message', role: 'user', messageId, parts: [{ kind: 'text', text: line }] };
    let started: Message | Task;
    try {
      started = await this.#handler.sendMessage({ message, configuration: { blocking: false } });
    } finally {
      this.#executor.dropPlan(messageId);
    }
    const executionId = started.kind === 'task' ? started.id : (started.taskId ?? '');
    return {
      execution_id: executionId,
      status: 'STARTED',
      message: `Running ${line} as task ${executionId}: follow it with tasks/resubscribe or tasks/get.`,
    };
  }

  #authorised(request: IncomingMessage): boolean {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match?.[1] || !this.#tokenDigest) return false;
    return timingSafeEqual(digest(match[1]), this.#tokenDigest);
  }

  #report(error: unknown): void {
    this.#options.onError?.(error instanceof Error ? error : new Error(String(error)));
  }
}

function buildAgentCard(
  options: A2aServerOptions<unknown, unknown, unknown, unknown> | A2aServerOptions<never, never, never, never>,
  push: boolean,
  bearer: boolean,
): AgentCard {
  const card = options.card ?? {};
  return {
    name: card.name ?? 'toolhost agent',
    description:
      card.description ??
      'A chat agent with the MCP tools of its configured servers (toolhost). It asks before a tool runs and streams every tool call through the development-tool extension.',
    url: card.url ?? 'http://127.0.0.1/',
    version: card.version ?? '0.1.0',
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    capabilities: {
      streaming: true,
      pushNotifications: push,
      stateTransitionHistory: false,
      extensions: [
        {
          uri: DEVELOPMENT_TOOL_EXTENSION_URI,
          description:
            'The development-tool extension: tool call lifecycle updates, confirmations answered by tool call id, thoughts, and slash commands (commands/get, command/execute).',
          required: true,
        },
      ],
    },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'],
    skills: [
      {
        id: 'mcp-tools',
        name: 'MCP tools',
        description: 'Answers with the help of the tools of its MCP servers, each run only once the user allowed it.',
        tags: ['mcp', 'tools'],
      },
    ],
    ...(bearer
      ? {
          securitySchemes: {
            bearer: {
              type: 'http',
              scheme: 'bearer',
              description: 'The token the agent was started with (given by its operator, or generated and shown once at start).',
            },
          },
          security: [{ bearer: [] }],
        }
      : {}),
  };
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isRpcId(value: unknown): boolean {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/** The request, or why it is not a JSON-RPC 2.0 request. */
function readRpcRequest(value: unknown): JsonRpcRequest | string {
  if (!isObject(value)) return 'The request is not a JSON-RPC 2.0 request object (batches are not supported).';
  if (value['jsonrpc'] !== '2.0') return 'The request needs "jsonrpc": "2.0".';
  if (typeof value['method'] !== 'string' || value['method'] === '') return 'The request needs a "method" string.';
  if ('id' in value && !isRpcId(value['id'])) return 'The request "id" must be a string, an integer or null.';
  if (value['params'] !== undefined && !isObject(value['params'])) return 'The request "params" must be an object.';
  return { jsonrpc: '2.0', id: (value['id'] as JsonRpcId | undefined) ?? null, method: value['method'], params: value['params'] };
}

function rpcError(
  id: JsonRpcId,
  code: number,
  message: string,
): { jsonrpc: '2.0'; id: JsonRpcId; error: { code: number; message: string } } {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

function isAsyncIterable(value: unknown): value is AsyncGenerator<unknown, void, undefined> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function';
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function sendText(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

function sendSseError(response: ServerResponse, answer: unknown): void {
  response.writeHead(200, SSE_HEADERS);
  response.end(`event: error\ndata: ${JSON.stringify(answer)}\n\n`);
}

/** The body, or undefined when it is over `limit` bytes (the rest is read and dropped). */
async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const declared = Number(request.headers['content-length']);
  const chunks: Buffer[] = [];
  let size = 0;
  let over = Number.isFinite(declared) && declared > limit;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) over = true;
    if (!over) chunks.push(buffer);
    if (size > limit * 16 + 65_536) {
      request.destroy();
      break;
    }
  }
  return over ? undefined : Buffer.concat(chunks);
}

async function serveStatic(root: string, pathname: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return sendText(response, 400, 'Bad path.');
  }
  if (decoded.includes('\0')) return sendText(response, 400, 'Bad path.');
  const base = resolve(root);
  let file = resolve(join(base, decoded));
  if (file !== base && !file.startsWith(base + sep)) return sendText(response, 404, 'Not found.');
  let info = await stat(file).catch(() => undefined);
  if (info?.isDirectory()) {
    file = join(file, 'index.html');
    info = await stat(file).catch(() => undefined);
  }
  if (!info?.isFile()) return sendText(response, 404, 'Not found.');
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
    'content-length': info.size,
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-cache',
  });
  if (request.method === 'HEAD') return void response.end();
  await new Promise<void>((resolvePromise, reject) => {
    const stream = createReadStream(file);
    stream.on('error', reject);
    stream.on('end', resolvePromise);
    stream.pipe(response);
  });
}
