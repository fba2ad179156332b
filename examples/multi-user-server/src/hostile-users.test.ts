// One user attacking another, and the server, through the HTTP API of the built example: Mallory
// has a valid API key and tries to reach Victor's questions (by id, by path tricks, by encoding),
// to fill the shared store with questions nobody answers, to make the server fail on hostile
// JSON, and to send two API keys at once. The store is the real redis-server of the test setup,
// so what the server keeps for each user can be counted.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import KeyvRedis from '@keyv/redis';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// The database setup of @toolhost/stores is not exported from that package: its types by path.
import type {} from '../../../packages/stores/src/testing/database-servers.js';
import { api, startExample, stopAll, type ApiAnswer, type ExampleProcess } from './testing/example-process.js';

// User ids of this file only: other test files share the redis-server.
const MALLORY = 'mallory-key-0123456789abcdef';
const VICTOR = 'victor-key-0123456789abcdef';
const USERS = { [MALLORY]: 'mallory-hostile-users-test', [VICTOR]: 'victor-hostile-users-test' };
const TOKEN_KEYS = `k1:${randomBytes(32).toString('base64')}`;

let folder: string;
let app: ExampleProcess;
let redis: KeyvRedis<unknown>;

/** How many calls of `user` wait for a decision in the store now (the server's own records). */
async function pendingRecords(user: string): Promise<number> {
  const hash = createHash('sha256').update(user, 'utf8').digest('base64url');
  const client = await redis.getClient();
  return (await client.keys(`*multi-user-server:v1:pending:${hash}:*`)).length;
}

/** A request sent as written: its own headers (a header given as a list is sent once per value). */
async function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string | string[]>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const target = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: target.hostname, port: target.port, path, method }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
    req.on('error', reject);
    req.end(body);
  });
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'multi-user-hostile-'));
  await writeFile(join(folder, 'users.json'), JSON.stringify(USERS));
  await writeFile(
    join(folder, 'settings.json'),
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [fixtureBinPath('basic')] } } }),
  );
  const redisUrl = inject('redisUrl');
  redis = new KeyvRedis(redisUrl, { throwOnErrors: true });
  app = await startExample(['--users', join(folder, 'users.json'), '--settings', join(folder, 'settings.json'), '--store', redisUrl], {
    TOOLHOST_TOKEN_KEYS: TOKEN_KEYS,
  });
});

afterAll(async () => {
  await stopAll();
  await redis?.disconnect();
  await rm(folder, { recursive: true, force: true });
});

describe("one user against another user's questions", () => {
  it("Mallory cannot answer Victor's question by its id, by path tricks or by encoding, and learns nothing of it", async () => {
    const secret = `victor-secret-${randomBytes(4).toString('hex')}`;
    const asked = await api(app.url, VICTOR, 'POST', '/tools/call', { name: 'echo', arguments: { message: secret } });
    expect(asked.body).toMatchObject({ status: 'needs-confirmation' });
    const id: string = asked.body.toolCallId;
    const encoded = [...id].map((character) => `%${character.charCodeAt(0).toString(16)}`).join('');
    const attempts = [
      `/confirmations/${id}`,
      `/confirmations/${encoded}`,
      `/confirmations/${id.toUpperCase()}`,
      `/confirmations/${id}%00`,
      `/confirmations/${id}%2F..`,
      `/confirmations/..%2F${id}`,
      `/confirmations%2F${id}`,
      `/x/../confirmations/${id}`,
      `/x/%2e%2e/confirmations/${id}`,
      `/confirmations/./${id}`,
      `/confirmations/${id}?user=${USERS[VICTOR]}`,
    ];
    const answers: ApiAnswer[] = [];
    for (const path of attempts) {
      const answer = await api(app.url, MALLORY, 'POST', path, { outcome: 'proceed_always' });
      answers.push(answer);
      expect([404, 400], path).toContain(answer.status);
    }
    // What Mallory gets for Victor's id is what she gets for an id nobody has: no oracle.
    const unknown = await api(app.url, MALLORY, 'POST', `/confirmations/call-00000000-0000-4000-8000-000000000000`, {
      outcome: 'proceed_always',
    });
    expect(answers[0]?.body.error.message).toBe(unknown.body.error.message.replace('call-00000000-0000-4000-8000-000000000000', id));
    // Nothing Mallory sees names Victor's call or its arguments.
    answers.push(await api(app.url, MALLORY, 'GET', '/status'), await api(app.url, MALLORY, 'GET', '/tools'));
    for (const answer of answers) {
      expect(JSON.stringify(answer.body)).not.toContain(secret);
      expect(JSON.stringify(answer.body)).not.toContain(USERS[VICTOR]);
    }
    // Victor's question is still open, and only for him.
    const decided = await api(app.url, VICTOR, 'POST', `/confirmations/${id}`, { outcome: 'proceed_once' });
    expect(decided.body).toMatchObject({ status: 'completed', isError: false });
    expect(JSON.stringify(decided.body.content)).toContain(secret);
  });
});

describe('one user against the server', () => {
  it("bounds the questions one user keeps waiting in the shared store; the oldest go first, and another user's stay", async () => {
    const victorAsked = await api(app.url, VICTOR, 'POST', '/tools/call', { name: 'echo', arguments: { message: 'keep me' } });
    expect(victorAsked.body.status).toBe('needs-confirmation');
    // Mallory asks and never decides, with big arguments (each within the body limit).
    const filler = 'x'.repeat(8_000);
    const ids: string[] = [];
    for (let i = 0; i < 110; i++) {
      const asked = await api(app.url, MALLORY, 'POST', '/tools/call', { name: 'echo', arguments: { message: `${i} ${filler}` } });
      expect(asked.body.status).toBe('needs-confirmation');
      ids.push(asked.body.toolCallId);
    }
    expect(await pendingRecords(USERS[MALLORY])).toBe(100);
    // The oldest were dropped, and say what may have happened; the newest still wait.
    const dropped = await api(app.url, MALLORY, 'POST', `/confirmations/${ids[0]}`, { outcome: 'cancel' });
    expect(dropped.status).toBe(404);
    expect(dropped.body.error.message).toContain('at most 100 calls wait for the decision of one user');
    expect((await api(app.url, MALLORY, 'POST', `/confirmations/${ids[109]}`, { outcome: 'cancel' })).body.status).toBe('cancelled');
    expect(await pendingRecords(USERS[MALLORY])).toBe(99);
    // Victor's question was not pushed out by Mallory's.
    expect(await pendingRecords(USERS[VICTOR])).toBe(1);
    const decided = await api(app.url, VICTOR, 'POST', `/confirmations/${victorAsked.body.toolCallId}`, { outcome: 'proceed_once' });
    expect(decided.body).toMatchObject({ status: 'completed', isError: false });
  });

  it('answers arguments nested deeper than the server handles with 400 INVALID_REQUEST, not a 500, and keeps serving', async () => {
    const depth = 20_000;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const body = `{"name":"echo","arguments":{"message":"deep","nested":${deep}}}`;
    const answer = await rawRequest(
      'POST',
      '/tools/call',
      { authorization: `Bearer ${MALLORY}`, 'content-type': 'application/json' },
      body,
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    expect(JSON.parse(answer.text).error.message).toContain('nested deeper than');
    expect(app.output()).not.toContain('Maximum call stack size exceeded');
    expect((await api(app.url, MALLORY, 'GET', '/tools')).status).toBe(200);
  });

  it('refuses a request with two Authorization headers instead of picking one of the keys', async () => {
    for (const keys of [
      [MALLORY, VICTOR],
      [VICTOR, MALLORY],
      [MALLORY, MALLORY],
    ]) {
      const answer = await rawRequest('GET', '/status', { authorization: keys.map((key) => `Bearer ${key}`) });
      expect(answer.status).toBe(401);
      expect(JSON.parse(answer.text)).toEqual({
        error: { code: 'UNAUTHENTICATED', message: 'Send one "Authorization: Bearer <key>" header, not several.' },
      });
    }
  });
});
