// Helpers for this package's tests: a real host over fixture MCP servers, the server on loopback, the SDK's client.
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { A2AClient } from '@a2a-js/sdk/client';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { McpToolHost, type ToolCall } from '@toolhost/host';
import { createA2aServer, type A2aServer, type A2aServerOptions } from './a2a-server.js';
import { createScriptedModel, type AgentModel } from './agent-model.js';
import { DEVELOPMENT_TOOL_EXTENSION_URI, type WireToolCall } from './development-tool.js';

/** The bearer token of the test agents. */
export const TOKEN = 'test-token-0123456789';

/** One event of a stream, as the SDK client yields it. */
export type StreamEvent = Message | Task | TaskStatusUpdateEvent | TaskArtifactUpdateEvent;

/** A running agent and a client for it. */
export interface TestAgent {
  readonly url: string;
  readonly host: McpToolHost;
  readonly server: A2aServer;
  /** The bearer token the server requires (TOKEN unless the test chose otherwise), if any. */
  readonly token: string | undefined;
  /** The SDK's client, sending the bearer token. */
  readonly client: A2AClient;
  /** Every tool-call update the host emitted. */
  readonly updates: ToolCall[];
  /** A raw JSON-RPC call (with the token unless `token` is given); resolves to the HTTP status and the body. */
  rpc(
    method: string,
    params?: unknown,
    options?: { readonly token?: string | null; readonly body?: string },
  ): Promise<{ status: number; body: RpcAnswer }>;
  close(): Promise<void>;
}

/** A JSON-RPC answer. */
export interface RpcAnswer {
  readonly jsonrpc: '2.0';
  readonly id: string | number | null;
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string };
}

/** A fetch that sends the token and aborts when `signal` does. */
export function authorisedFetch(token: string, signal?: AbortSignal): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers, ...(signal ? { signal } : {}) });
  };
}

/** Start a host with the `basic` fixture (asks before each tool) and the trusted `slow` fixture, and an agent around it. */
export async function startAgent(
  overrides: Partial<A2aServerOptions<unknown, unknown, unknown, unknown>> = {},
  hostOptions: { readonly deferConfirmations?: boolean } = {},
): Promise<TestAgent> {
  const host = await McpToolHost.create({
    settings: {
      mcpServers: {
        basic: { command: process.execPath, args: [fixtureBinPath('basic')] },
        slow: { command: process.execPath, args: [fixtureBinPath('slow')], trust: true },
      },
    },
    deferConfirmations: hostOptions.deferConfirmations ?? true,
  });
  const updates: ToolCall[] = [];
  host.on('tool-call-update', (call) => updates.push(call));
  await host.discover();
  const server = createA2aServer({
    host,
    model: createScriptedModel(),
    bearerToken: TOKEN,
    pushNotifications: { allowLoopback: true },
    ...overrides,
  } as A2aServerOptions<unknown, unknown, unknown, unknown>);
  const { url } = await server.listen({ port: 0 });
  // The token the server generated when the test gave none (an older server has no such property).
  const serverToken = 'bearerToken' in server ? server.bearerToken : TOKEN;
  const client = await A2AClient.fromCardUrl(new URL('/.well-known/agent-card.json', url).href, {
    fetchImpl: authorisedFetch(serverToken ?? TOKEN),
  });
  let counter = 0;
  return {
    url,
    host,
    server,
    token: serverToken,
    client,
    updates,
    async rpc(method, params, options = {}) {
      const token = options.token === undefined ? serverToken : options.token;
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body:
          options.body ??
          JSON.stringify({ jsonrpc: '2.0', id: `raw-${(counter += 1)}`, method, ...(params === undefined ? {} : { params }) }),
      });
      const text = await response.text();
      const body = (
        response.headers.get('content-type')?.startsWith('text/event-stream') ? parseSse(text)[0] : JSON.parse(text)
      ) as RpcAnswer;
      return { status: response.status, body };
    },
    async close() {
      await server.close();
      await host.close();
    },
  };
}

/** A model whose first reply asks for `count` runs of the trusted `slow` tool at once; then the scripted answer. */
export function manyCallsModel(count: number): AgentModel<unknown, unknown, unknown, unknown> {
  const scripted = createScriptedModel() as unknown as AgentModel<unknown, unknown, unknown, unknown>;
  return {
    ...scripted,
    generate: async (request) => {
      if ((request.history.at(-1) as { role?: string } | undefined)?.role !== 'user') return scripted.generate(request);
      const toolCalls = Array.from({ length: count }, (_, index) => ({ id: `many-${index}`, name: 'slow', arguments: { delayMs: 0 } }));
      return { response: { toolCalls }, items: [{ role: 'model', text: '' }], text: '' };
    },
  };
}

/** The `data:` payloads of an SSE body. */
export function parseSse(text: string): unknown[] {
  return text
    .split('\n\n')
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as unknown);
}

/** Every event of a stream. */
export async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** A user message. */
export function userMessage(
  parts: Message['parts'],
  extra: { readonly taskId?: string; readonly contextId?: string; readonly metadata?: Record<string, unknown> } = {},
): Message {
  return { kind: 'message', role: 'user', messageId: crypto.randomUUID(), parts, ...extra };
}

/** The `metadata.kind` of a status update, else the event's kind. */
export function kindOf(event: StreamEvent): string {
  if (event.kind !== 'status-update') return event.kind;
  const kind = (event.metadata as Record<string, unknown> | undefined)?.['kind'];
  return String(kind);
}

/** `kind` or `kind:state` (for STATE_CHANGE) or `kind:STATUS` (for tool calls) of each event: a compact trace. */
export function trace(events: readonly StreamEvent[]): string[] {
  return events.map((event) => {
    if (event.kind === 'task') return `task:${event.status.state}`;
    if (event.kind !== 'status-update') return event.kind;
    const kind = kindOf(event);
    if (kind === 'STATE_CHANGE') return `${kind}:${event.status.state}${event.final ? ':final' : ''}`;
    const call = toolCallOf(event);
    return call ? `${kind}:${call.status}` : kind;
  });
}

/** The ToolCall DataPart of a status update, if it has one. */
export function toolCallOf(event: StreamEvent): WireToolCall | undefined {
  if (event.kind !== 'status-update') return undefined;
  const part = event.status.message?.parts.find((candidate) => candidate.kind === 'data' && 'tool_call_id' in candidate.data);
  return part?.kind === 'data' ? (part.data as unknown as WireToolCall) : undefined;
}

/** The text of a status update's TextParts. */
export function textOf(event: StreamEvent): string {
  if (event.kind !== 'status-update') return '';
  return (event.status.message?.parts ?? []).flatMap((part) => (part.kind === 'text' ? [part.text] : [])).join('');
}

/** AgentSettings metadata for a first message. */
export function agentSettings(workspacePath: string): Record<string, unknown> {
  return { [DEVELOPMENT_TOOL_EXTENSION_URI]: { workspace_path: workspacePath } };
}

/** A loopback webhook that records what it receives. */
export async function startWebhook(): Promise<{
  readonly url: string;
  readonly received: Array<{ readonly body: Task; readonly headers: IncomingMessage['headers'] }>;
  waitFor(check: (task: Task) => boolean, timeoutMs?: number): Promise<Task>;
  close(): Promise<void>;
}> {
  const received: Array<{ body: Task; headers: IncomingMessage['headers'] }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Task, headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async waitFor(check, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find((entry) => check(entry.body));
        if (found) return found.body;
        if (Date.now() > deadline) throw new Error(`webhook: no matching task among ${received.length} notifications`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What {@link rawRequest} got back. */
export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/**
 * One HTTP request sent exactly as given, headers included (`Host` and `Origin` too, which fetch
 * will not forge): what a hostile web page, or a browser tricked by DNS rebinding, sends.
 */
export function rawRequest(
  url: string,
  options: { readonly method?: string; readonly path?: string; readonly headers?: Record<string, string>; readonly body?: string },
): Promise<RawResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        hostname,
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: {
          ...(options.body !== undefined ? { 'content-length': String(Buffer.byteLength(options.body)) } : {}),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** Poll until `check` holds. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
