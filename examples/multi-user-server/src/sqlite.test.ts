// The default deployment: one process, the stores in an SQLite file. Each user has their own
// approvals, and they survive a restart of the process.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startExample, stopAll, textOf, type ExampleProcess } from './testing/example-process.js';

const ALICE = 'alice-key-0123456789abcdef';
const BOB = 'bob-key-0123456789abcdef';
const TOKEN_KEYS = `k1:${randomBytes(32).toString('base64')}`;

describe('one process on SQLite: approvals per user, kept across restarts', () => {
  let folder: string;
  let args: string[];

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'multi-user-sqlite-'));
    await writeFile(join(folder, 'users.json'), JSON.stringify({ [ALICE]: 'alice', [BOB]: 'bob' }));
    await writeFile(
      join(folder, 'settings.json'),
      // JSON with comments, as settings files may be.
      `{\n  // every user gets this server\n  "mcpServers": { "fixture": ${JSON.stringify({ command: process.execPath, args: [fixtureBinPath('basic')] })} }\n}\n`,
    );
    args = [
      '--users',
      join(folder, 'users.json'),
      '--settings',
      join(folder, 'settings.json'),
      '--store',
      `sqlite:${join(folder, 'users.sqlite')}`,
    ];
  });

  afterAll(async () => {
    await stopAll();
    await rm(folder, { recursive: true, force: true });
  });

  it("user A's always-allow does not apply to user B, and A's approval survives a restart", async () => {
    let app: ExampleProcess = await startExample(args, { TOOLHOST_TOKEN_KEYS: TOKEN_KEYS });
    expect(app.output()).toContain('OAuth tokens encrypted (current key k1)');
    const echo = { name: 'echo', arguments: { message: 'hi alice' } };

    // Alice: asked first; she always allows echo.
    const asked = await api(app.url, ALICE, 'POST', '/tools/call', echo);
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      status: 'needs-confirmation',
      details: { mcpDetails: { serverName: 'fixture', toolName: 'echo' } },
    });
    expect(asked.body.details.options.map((option: { id: string }) => option.id)).toContain('proceed_always_tool');
    const decided = await api(app.url, ALICE, 'POST', `/confirmations/${asked.body.toolCallId}`, { outcome: 'proceed_always' });
    expect(decided.body).toMatchObject({ status: 'completed', toolCallId: asked.body.toolCallId, isError: false });
    expect(textOf(decided)).toContain('hi alice');
    // The decision was used up.
    expect((await api(app.url, ALICE, 'POST', `/confirmations/${asked.body.toolCallId}`, { outcome: 'proceed_once' })).status).toBe(404);
    // Now echo runs for Alice without asking.
    const again = await api(app.url, ALICE, 'POST', '/tools/call', echo);
    expect(again.body).toMatchObject({ status: 'completed', isError: false });

    // Bob, same process, same settings: still asked. He cannot answer Alice's questions either.
    const bobAsked = await api(app.url, BOB, 'POST', '/tools/call', { name: 'echo', arguments: { message: 'hi bob' } });
    expect(bobAsked.body).toMatchObject({ status: 'needs-confirmation' });
    const aliceAdd = await api(app.url, ALICE, 'POST', '/tools/call', { name: 'add', arguments: { a: 2, b: 3 } });
    expect(aliceAdd.body).toMatchObject({ status: 'needs-confirmation' });
    const stolen = await api(app.url, BOB, 'POST', `/confirmations/${aliceAdd.body.toolCallId}`, { outcome: 'proceed_always' });
    expect(stolen.status).toBe(404);
    expect(stolen.body.error.code).toBe('CONFIRMATION_NOT_FOUND');
    // Alice's question is still open for her.
    const added = await api(app.url, ALICE, 'POST', `/confirmations/${aliceAdd.body.toolCallId}`, { outcome: 'proceed_once' });
    expect(added.body).toMatchObject({ status: 'completed', isError: false, structuredContent: { sum: 5 } });
    const cancelled = await api(app.url, BOB, 'POST', `/confirmations/${bobAsked.body.toolCallId}`, { outcome: 'cancel' });
    expect(cancelled.body).toEqual({ status: 'cancelled', toolCallId: bobAsked.body.toolCallId });

    // Restart on the same file.
    expect(await app.stop()).toBe(0);
    app = await startExample(args, { TOOLHOST_TOKEN_KEYS: TOKEN_KEYS });
    expect((await api(app.url, ALICE, 'POST', '/tools/call', echo)).body).toMatchObject({ status: 'completed', isError: false });
    expect((await api(app.url, BOB, 'POST', '/tools/call', echo)).body).toMatchObject({ status: 'needs-confirmation' });
    // "Allow once" was not kept.
    expect((await api(app.url, ALICE, 'POST', '/tools/call', { name: 'add', arguments: { a: 1, b: 1 } })).body).toMatchObject({
      status: 'needs-confirmation',
    });
    expect(await app.stop()).toBe(0);
  });
});
