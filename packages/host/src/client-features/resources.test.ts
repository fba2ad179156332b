import { connectClient, createClientFeatures, type ConnectionClient, type OpenedConnection } from '@toolhost/connection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeArgument } from './complete-argument.js';
import { readResourceParts } from './read-resource-parts.js';
import { parseResourceReferences, resolveResourceReferences } from './resource-references.js';
import { everythingServer } from '../test-support.js';

let client: ConnectionClient;
let connection: OpenedConnection;

beforeAll(async () => {
  client = createClientFeatures({ serverName: 'everything' }).createClient({ name: 'toolhost-test', version: '0.0.0' }).client;
  const config = everythingServer();
  connection = await connectClient({ serverName: 'everything', config, client, timeout: 30_000, signal: AbortSignal.timeout(60_000) });
});
afterAll(async () => {
  await connection.close();
});

describe('resources against server-everything', () => {
  it('reads text as text and blobs as inline data', async () => {
    const [text] = await readResourceParts(client, { serverName: 'everything', uri: 'demo://resource/dynamic/text/3' });
    expect(text?.part).toMatchObject({ type: 'text' });
    expect(text?.part.type === 'text' && text.part.text).toContain('Resource 3: This is a plaintext resource');
    const [blob] = await readResourceParts(client, { serverName: 'everything', uri: 'demo://resource/dynamic/blob/4' });
    expect(blob?.part).toMatchObject({ type: 'inlineData', mimeType: 'text/plain' });
    const decoded = blob?.part.type === 'inlineData' ? Buffer.from(blob.part.data, 'base64').toString('utf8') : '';
    expect(decoded).toContain('Resource 4: This is a base64 blob');
  });

  it('reports a failed read as REQUEST_FAILED', async () => {
    await expect(readResourceParts(client, { serverName: 'everything', uri: 'demo://resource/dynamic/text/0' })).rejects.toMatchObject({
      code: 'REQUEST_FAILED',
      serverName: 'everything',
      uri: 'demo://resource/dynamic/text/0',
    });
  });

  it('resolves @server:uri references in user input into parts', async () => {
    const input =
      'Compare @everything:demo://resource/dynamic/text/1 with @everything:demo://resource/dynamic/blob/2, and @nowhere:file:///x.';
    const resolved = await resolveResourceReferences({ input, getClient: (name) => (name === 'everything' ? client : undefined) });
    expect(resolved.resolved.map((reference) => reference.uri)).toEqual([
      'demo://resource/dynamic/text/1',
      'demo://resource/dynamic/blob/2',
    ]);
    expect(resolved.failed).toHaveLength(1);
    expect(resolved.failed[0]?.error.code).toBe('SERVER_NOT_FOUND');
    expect(resolved.parts[0]).toEqual({ type: 'text', text: input });
    expect(resolved.parts[1]).toEqual({ type: 'text', text: 'Content from @everything:demo://resource/dynamic/text/1:' });
    expect(resolved.parts.some((part) => part.type === 'inlineData')).toBe(true);
    expect(resolved.parts.at(-1)).toMatchObject({ type: 'text', text: expect.stringContaining('Could not read @nowhere:file:///x') });
  });

  it('completes prompt arguments, using earlier arguments as context', async () => {
    const departments = await completeArgument(client, {
      ref: { type: 'prompt', name: 'completable-prompt' },
      argument: 'department',
      value: 'E',
    });
    expect(departments.values).toEqual(['Engineering']);
    const names = await completeArgument(client, {
      ref: { type: 'prompt', name: 'completable-prompt' },
      argument: 'name',
      value: '',
      context: { department: 'Sales' },
    });
    expect(names.values).toEqual(['David', 'Eve', 'Frank']);
  });
});

describe('parseResourceReferences', () => {
  it('finds references, strips sentence punctuation and ignores e-mail addresses', () => {
    const found = parseResourceReferences('mail me@host:x.y see @docs:file:///a/b.md. and @g-h_1:https://x.dev/p?q=1)');
    expect(found.map((reference) => [reference.serverName, reference.uri])).toEqual([
      ['docs', 'file:///a/b.md'],
      ['g-h_1', 'https://x.dev/p?q=1'],
    ]);
  });
});
