// The HTTP JSON API: every request names its user by API key; the user's host (from the pool) does
// the work. See the README for the endpoints.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConfirmationRequest, ToolCallResult } from '@toolhost/host';
import { PoolFullError, type HostLease, type HostPool } from './host-pool.js';
import { sameQuestion, TOOL_CALL_ID, type PendingCalls } from './pending-calls.js';

/** What the API answers for a tool call. */
export type CallAnswer =
  | {
      readonly status: 'completed';
      readonly toolCallId: string;
      readonly isError: boolean;
      /** The result's parts: text, images, audio, resources. */
      readonly content: ToolCallResult['parts'];
      readonly structuredContent?: Readonly<Record<string, unknown>>;
      /** Why the call did not succeed (`TOOL_REPORTED_ERROR`, `REQUEST_TIMEOUT`, `AUTH_REQUIRED`, ...). */
      readonly error?: { readonly code: string; readonly message: string };
    }
  | { readonly status: 'needs-confirmation'; readonly toolCallId: string; readonly details: ConfirmationRequest }
  | { readonly status: 'cancelled'; readonly toolCallId: string };

/** An API error: sent as `{ error: { code, message } }` with `status`. */
export class ApiError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** A stable code clients can test. */
  readonly code: string;
  /** Extra response headers (`www-authenticate`, `allow`, `retry-after`). */
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** Options of {@link startApiServer}. */
export interface ApiServerOptions {
  readonly pool: HostPool;
  readonly pending: PendingCalls;
  /** SHA-256 (hex) of each API key → user id. */
  readonly users: ReadonlyMap<string, string>;
  readonly maxBodyBytes: number;
  readonly port: number;
  readonly host: string;
  /** Told about unexpected errors (500s). */
  readonly onError?: (error: unknown) => void;
}

/** `sha256(apiKey)` as hex. */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** The outcomes a client may send; `proceed_always` means "always allow this tool". */
const OUTCOMES: Readonly<Record<string, string>> = {
  proceed_once: 'proceed_once',
  proceed_always: 'proceed_always_tool',
  proceed_always_tool: 'proceed_always_tool',
  proceed_always_server: 'proceed_always_server',
  cancel: 'cancel',
};

/** Start listening; resolves with the URL and a `close` that stops accepting requests. */
export async function startApiServer(options: ApiServerOptions): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    handle(options, req, res).catch((error: unknown) => {
      if (error instanceof ApiError) return sendError(res, error);
      if (error instanceof PoolFullError) return sendError(res, new ApiError(503, 'BUSY', error.message, { 'retry-after': '1' }));
      options.onError?.(error);
      const storeDown = (error as { name?: unknown }).name === 'StoresError';
      sendError(
        res,
        storeDown
          ? new ApiError(503, 'STORE_UNAVAILABLE', 'The store of user data is not available right now; try again shortly.')
          : new ApiError(500, 'INTERNAL', 'Something went wrong on the server; it has been logged.'),
      );
    });
  });
  server.requestTimeout = 15 * 60_000;
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = server.address() as AddressInfo;
  const shown = address.includes(':') ? `[${address}]` : address;
  return {
    url: `http://${shown}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

async function handle(options: ApiServerOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const method = req.method ?? 'GET';
  if (path === '/healthz') {
    allow(method, ['GET']);
    return send(res, 200, { ok: true });
  }
  const route = routeOf(path);
  if (route === undefined)
    throw new ApiError(
      404,
      'NOT_FOUND',
      `There is no ${path}: see GET /tools, POST /tools/call, POST /confirmations/<toolCallId>, GET /status.`,
    );
  allow(method, [route.method]);
  const user = authenticate(options, req);
  const body = route.method === 'POST' ? await readJson(req, options.maxBodyBytes) : undefined;
  // The call stops (and the server is told) when the client goes away before the answer.
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const lease = await options.pool.acquire(user);
  try {
    switch (route.name) {
      case 'tools':
        return send(res, 200, {
          tools: lease.host.listToolDefinitions().map((tool) => ({
            name: tool.name,
            serverName: tool.serverName,
            description: tool.description,
            inputSchema: tool.inputSchema,
            ...(tool.annotations ? { annotations: tool.annotations } : {}),
          })),
        });
      case 'status': {
        const format = new URL(req.url ?? '/', 'http://localhost').searchParams.get('format');
        if (format === 'text') {
          res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
          res.end(`${lease.host.servers.formatStatus()}\n`);
          return;
        }
        return send(res, 200, { user, servers: lease.host.servers.list() });
      }
      case 'call': {
        const { name, arguments: args } = callParams(body);
        return send(res, 200, await callTool(options, lease, { name, arguments: args }, `call-${randomUUID()}`, undefined, gone.signal));
      }
      case 'confirm': {
        const outcome = outcomeOf(body);
        const toolCallId = route.toolCallId;
        const call = TOOL_CALL_ID.test(toolCallId) ? await options.pending.take(lease.stores, toolCallId) : undefined;
        if (call === undefined) {
          throw new ApiError(
            404,
            'CONFIRMATION_NOT_FOUND',
            `No call ${toolCallId.slice(0, 80)} is waiting for your decision: it was decided already, it expired, it was dropped for newer ones (at most ${options.pending.maxPerUser} calls wait for the decision of one user), or it is not yours. Call the tool again.`,
          );
        }
        if (!call.details.options.some((option) => option.id === outcome)) {
          await options.pending.put(lease.stores, toolCallId, call);
          throw new ApiError(
            400,
            'INVALID_OUTCOME',
            `"${outcome}" is not offered for this call; choose one of ${call.details.options.map((option) => option.id).join(', ')}.`,
          );
        }
        if (outcome === 'cancel') return send(res, 200, { status: 'cancelled', toolCallId });
        return send(
          res,
          200,
          await callTool(
            options,
            lease,
            { name: call.name, arguments: call.arguments },
            toolCallId,
            { outcome, seen: call.details },
            gone.signal,
          ),
        );
      }
    }
  } finally {
    lease.release();
  }
}

/**
 * Run one call on the user's host. Without `decision`: when the host asks the user, the call is
 * stopped before it runs, recorded in the shared store, and answered `needs-confirmation`. With
 * `decision` (the user decided on `seen`): the host's question is answered with it, when it is the
 * same question; a different one (the tool changed since) is recorded and asked again.
 */
async function callTool(
  options: ApiServerOptions,
  lease: HostLease,
  params: { readonly name: string; readonly arguments: Record<string, unknown> },
  toolCallId: string,
  decision: { readonly outcome: string; readonly seen: ConfirmationRequest } | undefined,
  signal: AbortSignal,
): Promise<CallAnswer> {
  const stop = new AbortController();
  const onGone = () => stop.abort();
  signal.addEventListener('abort', onGone);
  let asked: ConfirmationRequest | undefined;
  const stopListening = lease.onConfirmation(toolCallId, (request) => {
    if (decision && sameQuestion(decision.seen, request)) {
      // Answered after the event is delivered, not from inside the host's emit.
      queueMicrotask(() => {
        try {
          lease.host.confirmations.answer({ toolCallId, optionId: decision.outcome });
        } catch {
          // The call ended meanwhile (client gone): nothing to answer.
        }
      });
      return;
    }
    asked = request;
    stop.abort();
  });
  let result: ToolCallResult;
  try {
    result = await lease.host.callTool({ name: params.name, arguments: params.arguments, toolCallId }, { signal: stop.signal });
  } finally {
    stopListening();
    signal.removeEventListener('abort', onGone);
  }
  if (asked !== undefined) {
    await options.pending.put(lease.stores, toolCallId, { ...params, details: asked, createdAt: Date.now() });
    return { status: 'needs-confirmation', toolCallId, details: asked };
  }
  if (result.error?.code === 'TOOL_NOT_FOUND') throw new ApiError(404, 'TOOL_NOT_FOUND', result.error.message);
  return {
    status: 'completed',
    toolCallId,
    isError: result.isError,
    content: result.parts,
    ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
    ...(result.error ? { error: { code: result.error.code, message: result.error.message } } : {}),
  };
}

type Route =
  | { readonly name: 'tools' | 'status' | 'call'; readonly method: string }
  | { readonly name: 'confirm'; readonly method: string; readonly toolCallId: string };

function routeOf(path: string): Route | undefined {
  if (path === '/tools') return { name: 'tools', method: 'GET' };
  if (path === '/tools/call') return { name: 'call', method: 'POST' };
  if (path === '/status') return { name: 'status', method: 'GET' };
  const confirm = /^\/confirmations\/([^/]+)$/.exec(path);
  if (confirm?.[1]) {
    let toolCallId: string;
    try {
      toolCallId = decodeURIComponent(confirm[1]);
    } catch {
      toolCallId = confirm[1];
    }
    return { name: 'confirm', method: 'POST', toolCallId };
  }
  return undefined;
}

function allow(method: string, methods: readonly string[]): void {
  if (!methods.includes(method)) {
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', `Use ${methods.join(' or ')} here, not ${method}.`, { allow: methods.join(', ') });
  }
}

/** The user of the request's API key. This is where a real app plugs in its own authentication. */
function authenticate(options: ApiServerOptions, req: IncomingMessage): string {
  const challenge = { 'www-authenticate': 'Bearer realm="toolhost-multi-user-server"' };
  // Node keeps the first of several Authorization headers; a proxy in front may keep the last: refused, not guessed.
  if ((req.headersDistinct.authorization?.length ?? 0) > 1) {
    throw new ApiError(401, 'UNAUTHENTICATED', 'Send one "Authorization: Bearer <key>" header, not several.', challenge);
  }
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) throw new ApiError(401, 'UNAUTHENTICATED', 'Send your API key as "Authorization: Bearer <key>".', challenge);
  const user = options.users.get(hashApiKey(match[1]));
  if (user === undefined) throw new ApiError(401, 'UNAUTHENTICATED', 'This API key is not known.', challenge);
  return user;
}

async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    req.resume();
    throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as JSON with "Content-Type: application/json".');
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    req.resume();
    throw new ApiError(413, 'BODY_TOO_LARGE', `The request body is over ${maxBytes} bytes.`, { connection: 'close' });
  }
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      // Over the limit: keep reading (and dropping) the rest, so that the answer reaches the client.
      if (size <= maxBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > maxBytes)
        reject(new ApiError(413, 'BODY_TOO_LARGE', `The request body is over ${maxBytes} bytes.`, { connection: 'close' }));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError(400, 'INVALID_JSON', 'The request body is not valid JSON.');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function callParams(body: unknown): { name: string; arguments: Record<string, unknown> } {
  if (!isObject(body) || typeof body['name'] !== 'string' || body['name'] === '') {
    throw new ApiError(400, 'INVALID_REQUEST', 'Send { "name": "<tool name from GET /tools>", "arguments": { ... } }.');
  }
  const args = body['arguments'] ?? {};
  if (!isObject(args)) throw new ApiError(400, 'INVALID_REQUEST', '"arguments" must be a JSON object.');
  if (depthOver(args, MAX_ARGUMENT_DEPTH)) {
    throw new ApiError(400, 'INVALID_REQUEST', `"arguments" are nested deeper than ${MAX_ARGUMENT_DEPTH} levels of objects and arrays.`);
  }
  return { name: body['name'], arguments: args };
}

/**
 * Deepest nesting of objects and arrays accepted in a call's arguments: JSON.parse reads any depth
 * that fits the body, but the store's serializer, the host and the MCP SDK walk values recursively
 * and would run out of stack on a deeper one (a 500 for a client's mistake).
 */
const MAX_ARGUMENT_DEPTH = 64;

/** Whether `value` nests objects and arrays more than `max` levels deep (walked without recursion). */
function depthOver(value: unknown, max: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (typeof item.value !== 'object' || item.value === null) continue;
    if (item.depth > max) return true;
    for (const child of Object.values(item.value)) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

function outcomeOf(body: unknown): string {
  const outcome = isObject(body) ? body['outcome'] : undefined;
  const optionId = typeof outcome === 'string' && Object.hasOwn(OUTCOMES, outcome) ? OUTCOMES[outcome] : undefined;
  if (optionId === undefined) {
    throw new ApiError(
      400,
      'INVALID_OUTCOME',
      'Send { "outcome": "proceed_once" | "proceed_always" | "proceed_always_server" | "cancel" }.',
    );
  }
  return optionId;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, error: ApiError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...error.headers });
  res.end(JSON.stringify({ error: { code: error.code, message: error.message } }));
}
