// Runs the built example as a user would: the scripted model offline, and each vendor against a fake API on loopback.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message, Task, TaskStatusUpdateEvent } from '@a2a-js/sdk';
import { A2AClient } from '@a2a-js/sdk/client';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { startJsonApi, type JsonApi } from '@toolhost-examples/chat-kit/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const PNG_SIGNATURE = '89504e470d0a1a0a';
const TOKEN = 'example-token-123456';

type StreamEvent = Message | Task | TaskStatusUpdateEvent | { kind: 'artifact-update' };

interface RunningAgent {
  readonly child: ChildProcess;
  readonly url: string;
  /** The token the agent generated and printed, when none was given. */
  readonly generatedToken: string | undefined;
  output(): string;
}

const running: ChildProcess[] = [];
let folder: string;

/** Start the built example and wait for the line with its URL. */
async function startAgent(args: string[], env: Record<string, string> = {}): Promise<RunningAgent> {
  const cleanEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const name of ['GEMINI_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'A2A_AGENT_TOKEN'])
    if (!(name in env)) delete cleanEnv[name];
  const child = spawn(process.execPath, [entry, ...args], { env: cleanEnv, cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  // The banner ends with the model line. Checked on every chunk; the deadline is only for a hang.
  const banner = /A2A agent listening on (\S+)\n[^]*?Model: [^\n]*\n/;
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const match = banner.exec(output);
      if (match?.[1]) finish(() => resolve(match[1]!));
    };
    const exited = (code: number | null) => finish(() => reject(new Error(`the example exited (${code}):\n${output}`)));
    const timer = setTimeout(() => finish(() => reject(new Error(`the example printed no URL within 60 s:\n${output}`))), 60_000);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.stderr.off('data', check);
      child.off('close', exited);
      settle();
    };
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.once('close', exited);
  });
  const generatedToken = /^Bearer token \(generated[^)]*\): (\S+)$/m.exec(output)?.[1];
  return { child, url, generatedToken, output: () => output };
}

/** The HTTP status of a GET of `path` sent exactly as written (fetch would normalise it). */
async function rawStatus(url: string, path: string): Promise<number> {
  return (await rawRequest(url, { path })).status;
}

/** One request sent exactly as given, `Host` and `Origin` included (fetch forges neither): what a hostile page's browser sends. */
function rawRequest(
  url: string,
  options: { readonly method?: string; readonly path?: string; readonly headers?: Record<string, string>; readonly body?: string },
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = request(
      { hostname, port, method: options.method ?? 'GET', path: options.path ?? '/', headers: options.headers ?? {} },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

async function collect(stream: AsyncIterable<unknown>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event as StreamEvent);
  return events;
}

function kinds(events: readonly StreamEvent[]): string[] {
  return events.map((event) => {
    if (event.kind === 'task') return 'task';
    if (event.kind !== 'status-update') return event.kind;
    const kind = String((event.metadata as Record<string, unknown>)['kind']);
    const data = event.status.message?.parts.find((part) => part.kind === 'data');
    const status = data?.kind === 'data' ? `:${String(data.data['status'])}` : '';
    return kind === 'STATE_CHANGE' ? `${kind}:${event.status.state}` : `${kind}${status}`;
  });
}

function userMessage(parts: Message['parts'], extra: { taskId?: string; contextId?: string } = {}): Message {
  return { kind: 'message', role: 'user', messageId: crypto.randomUUID(), parts, ...extra };
}

function client(url: string, token?: string): Promise<A2AClient> {
  const fetchImpl: typeof fetch = token
    ? (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('authorization', `Bearer ${token}`);
        return fetch(input, { ...init, headers });
      }
    : fetch;
  return A2AClient.fromCardUrl(new URL('/.well-known/agent-card.json', url).href, { fetchImpl });
}

/** Send `text`, approve the one tool call it causes, and return both streams. */
async function approveOneToolCall(a2a: A2AClient, text: string): Promise<{ first: StreamEvent[]; second: StreamEvent[] }> {
  const first = await collect(a2a.sendMessageStream({ message: userMessage([{ kind: 'text', text }]) }));
  const task = first[0] as Task;
  const pending = (first[2] as TaskStatusUpdateEvent).status.message?.parts[0];
  const toolCallId = pending?.kind === 'data' ? String(pending.data['tool_call_id']) : '';
  const second = await collect(
    a2a.sendMessageStream({
      message: userMessage([{ kind: 'data', data: { tool_call_id: toolCallId, selected_option_id: 'proceed_once' } }], {
        taskId: task.id,
        contextId: task.contextId,
      }),
    }),
  );
  return { first, second };
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'a2a-agent-'));
  await writeFile(
    join(folder, 'settings.json'),
    `{
  // The basic fixture: its tools need confirmation.
  "mcpServers": { "basic": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(fixtureBinPath('basic'))}] } }
}\n`,
  );
  await mkdir(join(folder, 'web'));
  await writeFile(join(folder, 'web', 'index.html'), '<!doctype html><title>web chat</title>\n');
});

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});

afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('examples/a2a-agent', () => {
  it('with --model scripted: serves the card and the web folder, asks before a tool runs, returns its image, and lists commands', async () => {
    const agent = await startAgent(['--port', '0', '--settings', 'settings.json', '--model', 'scripted', '--web', 'web', '--token', TOKEN]);
    expect(agent.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(agent.output()).toContain(`Web chat: ${agent.url}#token=${TOKEN}`);
    expect(agent.output()).toContain('Bearer token: the one given with --token');
    // The banner says what the model gets, from which servers.
    expect(agent.output()).toMatch(/\nMCP: the model gets \d+ tools \(1 of 1 configured server connected: "basic"\)\.\nModel: scripted\n/);
    expect(agent.generatedToken).toBeUndefined();
    const page = await fetch(agent.url);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).toContain('<title>web chat</title>');
    // Nothing outside the web folder is served, however the path is written.
    for (const path of ['/../settings.json', '/..%2fsettings.json', '/%2e%2e/settings.json']) {
      expect(await rawStatus(agent.url, path), path).toBe(404);
    }

    const a2a = await client(agent.url, TOKEN);
    const { first, second } = await approveOneToolCall(a2a, 'call mixed-content {}');
    expect(kinds(first)).toEqual(['task', 'STATE_CHANGE:working', 'TOOL_CALL_CONFIRMATION:PENDING', 'STATE_CHANGE:input-required']);
    expect(kinds(second)).toEqual([
      'STATE_CHANGE:working',
      'TOOL_CALL_UPDATE:EXECUTING',
      'TOOL_CALL_UPDATE:SUCCEEDED',
      'TEXT_CONTENT',
      'STATE_CHANGE:completed',
    ]);
    const image = (second[2] as TaskStatusUpdateEvent).status.message?.parts.find((part) => part.kind === 'file');
    const bytes = image?.kind === 'file' && 'bytes' in image.file ? image.file.bytes : '';
    expect(Buffer.from(bytes, 'base64').subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);

    const commands = (await a2a.callExtensionMethod('commands/get', {})) as unknown as { result: { commands: { name: string }[] } };
    expect(commands.result.commands.map((command) => command.name)).toEqual(['mcp', 'poem-writer']);
    const anonymous = await fetch(agent.url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'commands/get' }) });
    expect(anonymous.status).toBe(401);
  });

  it('without --token: generates a token, prints it once, and refuses requests without it, from other pages, and by other names', async () => {
    const agent = await startAgent(['--port', '0', '--settings', 'settings.json', '--model', 'scripted', '--web', 'web']);
    const token = agent.generatedToken;
    expect(token).toMatch(/^[\w-]{43}$/);
    // Once: on its own line, and in the web chat URL's fragment.
    expect(agent.output().split(token!)).toHaveLength(3);
    expect(agent.output()).toContain(`Web chat: ${agent.url}#token=${token}`);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'message/send',
      params: { message: userMessage([{ kind: 'text', text: 'call echo {"message":"hi"}' }]) },
    });
    // A program without the token.
    expect((await rawRequest(agent.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(401);
    // A web page on another origin: a "simple" text/plain POST, which needs no preflight.
    const crossOrigin = await rawRequest(agent.url, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      body,
    });
    expect(crossOrigin.status).toBe(403);
    // DNS rebinding: the page's own name, now pointing at 127.0.0.1, is the Host.
    const rebound = `rebind.attacker.example:${new URL(agent.url).port}`;
    const rebinding = await rawRequest(agent.url, {
      method: 'POST',
      headers: { host: rebound, origin: `http://${rebound}`, 'content-type': 'text/plain', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'command/execute', params: { command_path: ['mcp'], args: '' } }),
    });
    expect(rebinding.status).toBe(403);
    expect((await rawRequest(agent.url, { path: '/', headers: { host: rebound } })).status).toBe(403);
    // With the token, from the page the agent serves (its own origin), it works.
    const a2a = await client(agent.url, token);
    const { second } = await approveOneToolCall(a2a, 'call echo {"message":"with the token"}');
    expect(kinds(second).at(-1)).toBe('STATE_CHANGE:completed');
    const sameOrigin = await rawRequest(agent.url, {
      method: 'POST',
      headers: { origin: new URL(agent.url).origin, 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'commands/get', params: {} }),
    });
    expect(sameOrigin.status).toBe(200);
  });

  it('explains a missing key, a bad flag and a bad settings file, and exits 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--model', 'gemini'], /--model needs GEMINI_API_KEY/],
      [['--model', 'openai'], /--model needs OPENAI_API_KEY/],
      [['--model', 'anthropic'], /--model needs ANTHROPIC_API_KEY/],
      [['--model', 'llama'], /--model must be scripted, gemini, openai or anthropic/],
      [['--port', 'eighty'], /--port must be a port number/],
      [['--settings', 'missing.json'], /Cannot read the settings file .*missing\.json/],
      [['--bogus'], /Unknown option '--bogus'/],
      [['--token', 'short'], /--token must be at least 8 characters long/],
    ];
    // All at once: one after the other, eight Node start-ups take most of a minute on a busy machine.
    const runs = await Promise.all(
      cases.map(async ([args]) => {
        const child = spawn(process.execPath, [entry, ...args], {
          cwd: folder,
          env: { ...process.env, GEMINI_API_KEY: '', OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
        });
        let output = '';
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
        const [code] = (await once(child, 'close')) as [number];
        return { code, output };
      }),
    );
    for (const [index, [args, pattern]] of cases.entries()) {
      const { code, output } = runs[index]!;
      expect(code, args.join(' ')).toBe(2);
      expect(output, args.join(' ')).toMatch(pattern);
      expect(output).toContain('Usage:');
    }
  });

  describe('with a vendor model against a fake API', () => {
    let api: JsonApi;
    const bodies: Record<string, unknown>[] = [];
    let phase: 'call' | 'answer' = 'call';

    beforeAll(async () => {
      api = await startJsonApi((raw) => {
        const body = raw as Record<string, unknown>;
        bodies.push(body);
        const step = phase;
        phase = 'answer';
        if ('contents' in body) {
          const parts =
            step === 'call' ? [{ functionCall: { name: 'echo', args: { message: 'from gemini' } } }] : [{ text: 'Gemini says done.' }];
          return { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] };
        }
        if ('input' in body) {
          const output =
            step === 'call'
              ? [
                  {
                    type: 'function_call',
                    id: 'fc_1',
                    call_id: 'call_1',
                    name: 'echo',
                    arguments: '{"message":"from openai"}',
                    status: 'completed',
                  },
                ]
              : [
                  {
                    type: 'message',
                    id: 'msg_1',
                    role: 'assistant',
                    status: 'completed',
                    content: [{ type: 'output_text', text: 'OpenAI says done.', annotations: [] }],
                  },
                ];
          return { id: 'resp_1', object: 'response', model: 'gpt-test', status: 'completed', output };
        }
        const content =
          step === 'call'
            ? [{ type: 'tool_use', id: 'toolu_1', name: 'echo', input: { message: 'from anthropic' } }]
            : [{ type: 'text', text: 'Anthropic says done.' }];
        return {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content,
          stop_reason: step === 'call' ? 'tool_use' : 'end_turn',
          usage: { input_tokens: 1, output_tokens: 1 },
        };
      });
    });

    afterAll(async () => {
      await api?.close();
    });

    const vendors: Array<[string, Record<string, string>, string]> = [
      ['gemini', { GEMINI_API_KEY: 'k', GEMINI_MODEL: 'gemini-test' }, 'GOOGLE_GEMINI_BASE_URL'],
      ['openai', { OPENAI_API_KEY: 'k', OPENAI_MODEL: 'gpt-test' }, 'OPENAI_BASE_URL'],
      ['anthropic', { ANTHROPIC_API_KEY: 'k', ANTHROPIC_MODEL: 'claude-test' }, 'ANTHROPIC_BASE_URL'],
    ];

    it.each(vendors)(
      '--model %s: the tool call of the model is confirmed, run, and its result goes back to the model',
      async (vendor, env, baseVariable) => {
        phase = 'call';
        bodies.length = 0;
        const base = `http://127.0.0.1:${api.port}${vendor === 'openai' ? '/v1' : ''}`;
        const agent = await startAgent(['--port', '0', '--settings', 'settings.json', '--model', vendor], { ...env, [baseVariable]: base });
        const a2a = await client(agent.url, agent.generatedToken);
        const { first, second } = await approveOneToolCall(a2a, 'please echo');
        expect(kinds(first)).toEqual(['task', 'STATE_CHANGE:working', 'TOOL_CALL_CONFIRMATION:PENDING', 'STATE_CHANGE:input-required']);
        expect(kinds(second)).toEqual([
          'STATE_CHANGE:working',
          'TOOL_CALL_UPDATE:EXECUTING',
          'TOOL_CALL_UPDATE:SUCCEEDED',
          'TEXT_CONTENT',
          'STATE_CHANGE:completed',
        ]);
        const text = (second[3] as TaskStatusUpdateEvent).status.message?.parts[0];
        expect(text?.kind === 'text' && text.text).toMatch(/says done/);
        // The second request carried the tool's result back in the vendor's format.
        expect(bodies).toHaveLength(2);
        expect(JSON.stringify(bodies[1])).toContain(`from ${vendor}`);
        expect((second[3] as TaskStatusUpdateEvent).metadata).toMatchObject({ kind: 'TEXT_CONTENT' });
      },
    );
  });
});
