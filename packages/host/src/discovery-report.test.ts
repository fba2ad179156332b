// discover()'s report: what connected, what was skipped and why, in lines a newcomer's loop prints.
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setServerEnabled } from '@toolhost/config/edit';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, useProjectFolders } from './test-support.js';

const { tempDir, writeProjectSettings, startHost } = useProjectFolders('toolhost-discovery-report-');

/** Terminal control, BiDi and zero-width characters; a printed summary must hold none (line feeds separate its lines). */
// eslint-disable-next-line no-control-regex -- the characters a terminal must never receive
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;
/** Text a hostile peer sends to take over the terminal that prints the summary: clear screen, a hidden link, right-to-left override. */
const HOSTILE = 'denied \u001b[2J\u001b]8;;http://evil.example\u0007click\u202e';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A real HTTP server on loopback; `answer` writes each response. */
async function startHttp(answer: (body: string, res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => answer(body, res));
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

/** An MCP endpoint that refuses every request with a JSON-RPC error whose message is {@link HOSTILE}. */
function startRefusingServer(): Promise<string> {
  return startHttp((body, res) => {
    const id = (JSON.parse(body || '{}') as { id?: unknown }).id;
    if (id === undefined) {
      res.writeHead(202).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: HOSTILE } }));
  });
}

/** An MCP endpoint that wants a sign-in: 401 with a Bearer challenge. */
function startProtectedServer(): Promise<string> {
  return startHttp((_body, res) => {
    res.writeHead(401, { 'www-authenticate': 'Bearer realm="mcp"' }).end();
  });
}

describe('McpToolHost.discover() report', () => {
  it('lists the servers found and every one skipped with why and what to do, escaped', async () => {
    const home = await tempDir();
    const project = await tempDir();
    await mkdir(join(home, '.toolhost'), { recursive: true });
    await writeFile(
      join(home, '.toolhost', 'settings.json'),
      JSON.stringify({
        mcp: { excluded: ['excluded'] },
        mcpServers: {
          basic: fixtureServer('basic'),
          off: fixtureServer('basic'),
          excluded: fixtureServer('basic'),
          missing: { command: join(home, 'no-such-server') },
          refusing: { httpUrl: await startRefusingServer() },
          secure: { httpUrl: await startProtectedServer() },
        },
      }),
    );
    await setServerEnabled({ homeDir: home, projectDir: project, name: 'off', enabled: false });
    // A cloned project's settings are hostile too: a server name that would clear the screen.
    await writeProjectSettings(project, { files: fixtureServer('basic'), 'evil\u001b[2J\u202e': fixtureServer('basic') });
    const host = await startHost({ projectDir: project, homeDir: home });

    const report = await host.discover();

    // The status fields stay as they were.
    expect(report.servers.map((server) => server.name)).toEqual(host.servers.status().servers.map((server) => server.name));
    expect(report.warnings.map((warning) => warning.code)).toEqual(['UNTRUSTED_PROJECT']);
    expect(report.discoveryState).toBe('COMPLETED');

    const basicTools = host.servers.listTools().length;
    expect(basicTools).toBeGreaterThan(0);
    expect(report.toolCount).toBe(host.listTools().length);
    expect(report.connected).toEqual([{ serverName: 'basic', toolCount: basicTools }]);
    expect(report.skipped.map(({ serverName, status, code }) => [serverName, status, code])).toEqual([
      ['off', 'DISABLED', 'DISABLED'],
      ['excluded', 'BLOCKED', 'EXCLUDED'],
      ['missing', 'DISCONNECTED', 'SPAWN_FAILED'],
      ['refusing', 'DISCONNECTED', 'CONNECT_FAILED'],
      ['secure', 'DISCONNECTED', 'AUTH_REQUIRED'],
      ['files', 'BLOCKED', 'UNTRUSTED_PROJECT'],
      ['evil\u001b[2J\u202e', 'BLOCKED', 'UNTRUSTED_PROJECT'],
    ]);
    const reason = (name: string) => report.skipped.find((server) => server.serverName === name)?.reason ?? '';
    expect(reason('off')).toBe('MCP server "off" is disabled, so it is not started; run "npx @toolhost/cli mcp enable off" to enable it.');
    expect(reason('excluded')).toBe('MCP server "excluded" is blocked by the mcp.excluded setting.');
    expect(reason('missing')).toContain('could not start');
    expect(reason('refusing')).toContain('denied \\u001b[2J\\u001b]8;;http://evil.example\\u0007click\\u202e');
    expect(reason('secure')).toContain('run "npx @toolhost/cli mcp auth secure"');
    expect(reason('files')).toContain(`the project folder ${project}, which is not trusted`);
    expect(reason('files')).toContain(`run "npx @toolhost/cli trust" in ${project}`);
    expect(reason('evil\u001b[2J\u202e')).toContain('MCP server "evil\\u001b[2J\\u202e" comes from the settings of the project folder');

    const lines = report.summary.split('\n');
    expect(lines[0]).toBe(`MCP: the model gets ${report.toolCount} tools (1 of 8 configured servers connected: "basic"); skipped:`);
    // One line per skipped server, the two of the untrusted folder sharing one.
    expect(lines.slice(1)).toEqual([
      `  - ${reason('off')}`,
      `  - ${reason('excluded')}`,
      `  - ${reason('missing')}`,
      `  - ${reason('refusing')}`,
      `  - ${reason('secure')}`,
      `  - 2 MCP servers "files", "evil\\u001b[2J\\u202e" come from the settings of the project folder ${project}, which is not trusted, so they are not started. If you trust this folder, run "npx @toolhost/cli trust" in ${project}.`,
    ]);
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
    for (const skipped of report.skipped) expect(skipped.reason).not.toMatch(UNSAFE);
    expect(String(report)).toBe(report.summary);
    expect(`${report}`).toBe(report.summary);
  });

  it('says the model gets no tools when every configured server is skipped, naming the host own trust command', async () => {
    const home = await tempDir();
    const project = await tempDir();
    await writeProjectSettings(project, { files: fixtureServer('basic') });
    const host = await startHost({ projectDir: project, homeDir: home, trustCommand: 'myapp trust' });

    const report = await host.discover();

    expect(host.listTools()).toEqual([]);
    expect(report.toolCount).toBe(0);
    expect(report.connected).toEqual([]);
    expect(report.summary).toBe(
      [
        'MCP: the model gets no tools (0 of 1 configured server connected); skipped:',
        `  - MCP server "files" comes from the settings of the project folder ${project}, which is not trusted, so it is not started. If you trust this folder, run "myapp trust" in ${project}.`,
      ].join('\n'),
    );
  });

  it('points the commands at the settings folder of appDir', async () => {
    const home = await tempDir();
    const project = await tempDir();
    await mkdir(join(project, '.myapp'), { recursive: true });
    await writeFile(join(project, '.myapp', 'settings.json'), JSON.stringify({ mcpServers: { files: fixtureServer('basic') } }));
    const host = await startHost({ appDir: '.myapp', projectDir: project, homeDir: home });

    const report = await host.discover();

    expect(report.skipped[0]?.reason).toContain(`run "npx @toolhost/cli --app-dir .myapp trust" in ${project}`);
  });

  it('says when no server is configured, and why an entry was left out', async () => {
    const home = await tempDir();
    const project = await tempDir();
    await mkdir(join(home, '.toolhost'), { recursive: true });
    await writeFile(join(home, '.toolhost', 'settings.json'), JSON.stringify({ mcpServers: { broken: { command: 42 } } }));
    const host = await startHost({ projectDir: project, homeDir: home });

    const report = await host.discover();

    const lines = report.summary.split('\n');
    expect(lines.slice(0, 2)).toEqual(['MCP: no servers configured, so the model gets no MCP tools.', 'MCP settings warnings:']);
    expect(lines[2]).toContain('the server "broken" was not loaded');
    expect(lines).toHaveLength(3);
  });

  it('says every server connected in one line', async () => {
    const host = await startHost({ settings: { mcpServers: { one: fixtureServer('basic'), two: fixtureServer('basic') } } });

    const report = await host.discover();

    expect(report.skipped).toEqual([]);
    expect(report.summary).toBe(
      `MCP: the model gets ${host.listTools().length} tools (2 of 2 configured servers connected: "one", "two").`,
    );
  });
});
