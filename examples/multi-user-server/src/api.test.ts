// The API of the built example, one process on SQLite: start-up checks, errors, tools and status,
// the bounded pool of hosts, and a decision on a tool that changed since the user was asked.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, runExampleToEnd, startExample, stopAll, textOf, waitForOutput, type ExampleProcess } from './testing/example-process.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const TOKEN_KEYS = `k1:${randomBytes(32).toString('base64')}`;

let folder: string;
let users: string;
let settings: string;

/** Settings whose "fixture" server is the fixture of `behaviour` over stdio. */
async function writeSettings(path: string, behaviour: 'basic' | 'crash'): Promise<void> {
  await writeFile(path, JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [fixtureBinPath(behaviour)] } } }));
}

function start(
  extra: readonly string[],
  env: Record<string, string | undefined> = { TOOLHOST_TOKEN_KEYS: TOKEN_KEYS },
): Promise<ExampleProcess> {
  return startExample(
    ['--users', users, '--settings', settings, '--store', `sqlite:${join(folder, `${randomBytes(4).toString('hex')}.sqlite`)}`, ...extra],
    env,
  );
}

/** A POST whose body is sent as written (with its own content type). */
async function rawPost(url: string, path: string, body: string | Buffer, contentType: string): Promise<{ status: number; body: unknown }> {
  const target = new URL(path, url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${ALICE}`, 'content-type': contentType },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'multi-user-api-'));
  users = join(folder, 'users.json');
  settings = join(folder, 'settings.json');
  await writeFile(users, JSON.stringify({ [ALICE]: 'alice', [BOB]: 'bob' }));
  await writeSettings(settings, 'basic');
});

afterAll(async () => {
  await stopAll();
  await rm(folder, { recursive: true, force: true });
});

describe('start-up', () => {
  it('refuses to start without TOOLHOST_TOKEN_KEYS (unless --unencrypted-dev), with a malformed key, or without --users', async () => {
    const store = `sqlite:${join(folder, 'startup.sqlite')}`;
    await writeFile(join(folder, 'weak-users.json'), JSON.stringify({ short: 'carol' }));
    // All at once: one after the other, six Node start-ups take most of a minute on a busy machine.
    const [noKeys, shortKey, noUsers, weak, dev, rotated] = await Promise.all([
      runExampleToEnd(['--users', users, '--settings', settings, '--store', store]),
      runExampleToEnd(['--users', users, '--store', store], { TOOLHOST_TOKEN_KEYS: `old:${randomBytes(16).toString('base64')}` }),
      runExampleToEnd(['--store', store], { TOOLHOST_TOKEN_KEYS: TOKEN_KEYS }),
      runExampleToEnd(['--users', join(folder, 'weak-users.json'), '--store', store], { TOOLHOST_TOKEN_KEYS: TOKEN_KEYS }),
      start(['--unencrypted-dev'], {}),
      // Two keys: the first is current.
      start([], { TOOLHOST_TOKEN_KEYS: `k2:${randomBytes(32).toString('base64')}, ${TOKEN_KEYS}` }),
    ]);
    expect(noKeys.code).toBe(2);
    expect(noKeys.output).toContain('TOOLHOST_TOKEN_KEYS is not set');
    expect(noKeys.output).toContain('--unencrypted-dev');

    expect(shortKey.code).toBe(2);
    expect(shortKey.output).toContain('the key "old" must be 32 bytes in base64');

    expect(noUsers.code).toBe(2);
    expect(noUsers.output).toContain('--users is required');

    expect(weak.code).toBe(2);
    expect(weak.output).toContain(`The users file ${join(folder, 'weak-users.json')}: the API key "shor…" must be at least 16 characters`);

    expect(dev.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(dev.output()).toContain('OAuth tokens NOT encrypted (development only)');
    expect(await dev.stop()).toBe(0);

    expect(rotated.output()).toContain('encrypted (current key k2)');
    expect(await rotated.stop()).toBe(0);
  });
});

describe('the offline demo (npm start)', () => {
  it('runs the tour with two users and the reference server over stdio, with no network and no key', async () => {
    const demo = await startExample(['--demo'], {});
    await waitForOutput(demo.child, demo.output, /The server keeps running/);
    const output = demo.output();
    expect(output).toContain('MCP servers: everything (offline demo)');
    expect(output).toMatch(/alice {2}POST \/confirmations\/… always {7}→ completed: Echo: hello from the tour/);
    expect(output).toMatch(/alice {2}POST \/tools\/call echo {14}→ completed/);
    expect(output).toMatch(/bob {4}POST \/tools\/call echo {14}→ needs-confirmation/);
    expect(output).toMatch(/bob {4}POST \/confirmations\/… cancel {7}→ cancelled/);
    expect(await demo.stop()).toBe(0);
  });
});

describe('the API', () => {
  let app: ExampleProcess;
  beforeAll(async () => {
    app = await start(['--max-body-bytes', '2048']);
  });

  it('answers errors as JSON { error: { code, message } } with proper statuses', async () => {
    const anonymous = await api(app.url, undefined, 'GET', '/tools');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
    expect((await api(app.url, 'not-a-known-key-at-all', 'GET', '/tools')).body.error).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'This API key is not known.',
    });
    expect((await api(app.url, ALICE, 'GET', '/nothing')).status).toBe(404);
    const wrongMethod = await api(app.url, ALICE, 'GET', '/tools/call');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(await rawPost(app.url, '/tools/call', 'name=echo', 'application/x-www-form-urlencoded')).toMatchObject({
      status: 415,
      body: { error: { code: 'UNSUPPORTED_MEDIA_TYPE' } },
    });
    expect(await rawPost(app.url, '/tools/call', '{"name": ', 'application/json')).toMatchObject({
      status: 400,
      body: { error: { code: 'INVALID_JSON' } },
    });
    expect(
      await rawPost(app.url, '/tools/call', JSON.stringify({ name: 'echo', arguments: { message: 'x'.repeat(4096) } }), 'application/json'),
    ).toMatchObject({
      status: 413,
      body: { error: { code: 'BODY_TOO_LARGE' } },
    });
    expect((await api(app.url, ALICE, 'POST', '/tools/call', { arguments: {} })).body.error.code).toBe('INVALID_REQUEST');
    expect((await api(app.url, ALICE, 'POST', '/tools/call', { name: 'echo', arguments: [1] })).body.error.code).toBe('INVALID_REQUEST');
    const unknownTool = await api(app.url, ALICE, 'POST', '/tools/call', { name: 'no-such-tool', arguments: {} });
    expect(unknownTool.status).toBe(404);
    expect(unknownTool.body.error.code).toBe('TOOL_NOT_FOUND');
    expect((await api(app.url, ALICE, 'POST', '/confirmations/..%2Fetc', { outcome: 'proceed_once' })).body.error.code).toBe(
      'CONFIRMATION_NOT_FOUND',
    );
    // A bad outcome is refused and the question stays open.
    const asked = await api(app.url, ALICE, 'POST', '/tools/call', { name: 'echo', arguments: { message: 'later' } });
    const badOutcome = await api(app.url, ALICE, 'POST', `/confirmations/${asked.body.toolCallId}`, { outcome: 'toString' });
    expect(badOutcome.status).toBe(400);
    expect(badOutcome.body.error.code).toBe('INVALID_OUTCOME');
    expect((await api(app.url, ALICE, 'POST', `/confirmations/${asked.body.toolCallId}`, { outcome: 'proceed_once' })).body).toMatchObject({
      status: 'completed',
    });
    // The health check needs no key.
    expect((await api(app.url, undefined, 'GET', '/healthz')).body).toEqual({ ok: true });
  });

  it("GET /tools and GET /status show the user's tools and servers (JSON, or the /mcp text)", async () => {
    const tools = await api(app.url, BOB, 'GET', '/tools');
    expect(tools.status).toBe(200);
    expect(tools.body.tools.map((tool: { name: string }) => tool.name)).toEqual(expect.arrayContaining(['echo', 'add']));
    expect(tools.body.tools[0]).toMatchObject({ serverName: 'fixture', inputSchema: { type: 'object' } });
    const status = await api(app.url, BOB, 'GET', '/status');
    expect(status.body).toMatchObject({ user: 'bob', servers: [{ name: 'fixture', status: 'CONNECTED', transport: 'stdio' }] });
    const text = await api(app.url, BOB, 'GET', '/status?format=text');
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text.body).toContain('MCP Servers Status:');
    expect(text.body).toContain('fixture');
  });
});

describe('the hosts', () => {
  it('keeps at most --max-hosts: the least recently used idle host is closed, and approvals outlive it', async () => {
    const app = await start(['--max-hosts', '1']);
    const asked = await api(app.url, ALICE, 'POST', '/tools/call', { name: 'echo', arguments: { message: 'a' } });
    await api(app.url, ALICE, 'POST', `/confirmations/${asked.body.toolCallId}`, { outcome: 'proceed_always' });
    expect((await api(app.url, BOB, 'GET', '/tools')).status).toBe(200);
    expect(app.output()).toContain('host closed for user "alice" (evicted: more users than --max-hosts)');
    // Alice gets a new host (Bob's is closed in turn); her approval is in the store.
    expect((await api(app.url, ALICE, 'POST', '/tools/call', { name: 'echo', arguments: { message: 'b' } })).body).toMatchObject({
      status: 'completed',
    });
    expect(app.output()).toContain('host closed for user "bob" (evicted: more users than --max-hosts)');
    expect(await app.stop()).toBe(0);
  });

  it('closes a host after --idle-seconds without a request', async () => {
    const app = await start(['--idle-seconds', '1']);
    expect((await api(app.url, ALICE, 'GET', '/tools')).status).toBe(200);
    // The log says what the user's model gets (waited for: the log and the answer come on two streams).
    await waitForOutput(
      app.child,
      app.output,
      /host opened for user "alice"\nMCP: the model gets \d+ tools \(1 of 1 configured server connected: "\w+"\)\.\n/,
    );
    await waitForOutput(app.child, app.output, /host closed for user "alice" \(idle\)/);
    expect(await app.stop()).toBe(0);
  });

  it('a decision about a tool that changed since the user was asked is not applied: the user is asked again', async () => {
    const changing = join(folder, 'changing-settings.json');
    await writeSettings(changing, 'basic');
    const store = `sqlite:${join(folder, 'changing.sqlite')}`;
    const args = ['--users', users, '--settings', changing, '--store', store];
    let app = await startExample(args, { TOOLHOST_TOKEN_KEYS: TOKEN_KEYS });
    const asked = await api(app.url, ALICE, 'POST', '/tools/call', { name: 'echo', arguments: { message: 'hi' } });
    expect(asked.body.details.mcpDetails.toolParameterSchema).toMatchObject({
      properties: { message: { description: 'Text to echo back' } },
    });
    expect(await app.stop()).toBe(0);
    // The server's echo now has another input schema (no description of "message").
    await writeSettings(changing, 'crash');
    app = await startExample(args, { TOOLHOST_TOKEN_KEYS: TOKEN_KEYS });
    const again = await api(app.url, ALICE, 'POST', `/confirmations/${asked.body.toolCallId}`, { outcome: 'proceed_always' });
    expect(again.body).toMatchObject({ status: 'needs-confirmation', toolCallId: asked.body.toolCallId });
    expect(again.body.details.mcpDetails.toolParameterSchema.properties.message.description).toBeUndefined();
    // Deciding on what is shown now runs it.
    const done = await api(app.url, ALICE, 'POST', `/confirmations/${asked.body.toolCallId}`, { outcome: 'proceed_once' });
    expect(done.body).toMatchObject({ status: 'completed', isError: false });
    expect(textOf(done)).toContain('hi');
    expect(await app.stop()).toBe(0);
  });
});
