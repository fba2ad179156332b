import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { startClientFeaturesServer } from '@toolhost-internal/fixtures';
import { ConnectionError } from './connection-error.js';
import { Client } from '@modelcontextprotocol/client';
import { createClientFeatures } from './create-client-features.js';
import { setLogLevel, type ServerLogEvent } from './logging.js';
import { RootsController } from './roots-controller.js';
import { connectEverything, connectHttp, EVERYTHING_SERVER, resultText, waitFor } from './test-support.js';
import { toFileUri } from './to-file-uri.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('toFileUri', () => {
  it('encodes POSIX, Windows and UNC paths', () => {
    expect(toFileUri('/home/me/my project')).toBe('file:///home/me/my%20project');
    expect(toFileUri('C:\\work\\app #1')).toBe('file:///C:/work/app%20%231');
    expect(toFileUri('\\\\server\\share\\dir')).toBe('file://server/share/dir');
    expect(toFileUri('file:///already')).toBe('file:///already');
  });

  it('rejects relative paths with INVALID_ROOT', () => {
    expect(() => toFileUri('src/app')).toThrow(expect.objectContaining({ code: 'INVALID_ROOT' }));
  });
});

describe('roots and logging against server-everything', () => {
  it('answers roots/list with the project folders and notifies changes', async () => {
    const logs: ServerLogEvent[] = [];
    const roots = new RootsController({ folders: ['/work/app', { path: '/work/lib', name: 'library' }] });
    const features = createClientFeatures({ serverName: 'everything', roots, onLog: (event) => logs.push(event) });
    expect(features.capabilities.roots).toEqual({ listChanged: true });
    const client = await connectEverything(features.capabilities, (c) => features.attach(c));
    clients.push(client);

    // The server asks for roots ~350 ms after initialization and logs how many it got.
    await waitFor(() => logs.some((log) => String(log.data).includes('2 root(s)')));
    expect(logs[0]).toMatchObject({ serverName: 'everything', level: 'info' });
    const listed = await client.callTool({ name: 'get-roots-list', arguments: {} });
    expect(resultText(listed)).toContain('file:///work/app');
    expect(resultText(listed)).toContain('library');

    await roots.setFolders(['/work/app', '/work/lib', '/work/docs']);
    await waitFor(() => logs.some((log) => String(log.data).includes('3 root(s)')));
    const relisted = await client.callTool({ name: 'get-roots-list', arguments: {} });
    expect(resultText(relisted)).toContain('file:///work/docs');
  });

  it('createClient builds an SDK Client with the capabilities and handlers attached', async () => {
    const logs: ServerLogEvent[] = [];
    const roots = new RootsController({ folders: ['/srv/a'] });
    const features = createClientFeatures({ serverName: 'everything', roots, onLog: (event) => logs.push(event) });
    const { client, attached } = features.createClient({ name: 'toolhost-test', version: '0.0.0' });
    expect(client).toBeInstanceOf(Client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING_SERVER, 'stdio'], stderr: 'ignore' }));
    clients.push(client);
    await waitFor(() => logs.some((log) => String(log.data).includes('1 root(s)')));
    expect(attached.subscriptions.list()).toEqual([]);
    expect(logs[0]?.serverName).toBe('everything');
  });

  it('routes notifications/message to events with the server name after setLevel', async () => {
    const logs: ServerLogEvent[] = [];
    const features = createClientFeatures({ serverName: 'everything', onLog: (event) => logs.push(event) });
    const client = await connectEverything(features.capabilities, (c) => features.attach(c));
    clients.push(client);
    await setLogLevel(client, { serverName: 'everything', level: 'debug' });
    await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    await waitFor(() => logs.some((log) => String(log.data).includes('-level message') || String(log.data).includes('level-message')));
    const simulated = logs.find((log) => String(log.data).includes('message'));
    expect(simulated?.serverName).toBe('everything');
    await client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
  });

  it('refuses setLevel on a server without the logging capability', async () => {
    const fixture = await startClientFeaturesServer();
    try {
      const client = await connectHttp(fixture.url);
      clients.push(client);
      const error = await setLogLevel(client, { serverName: 'fixture', level: 'info' }).catch((e: unknown) => e);
      expect(ConnectionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED', serverName: 'fixture' });
    } finally {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await fixture.close();
    }
  });
});
