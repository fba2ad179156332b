// Several instances of one app sharing the user's stores: two app processes (each an McpToolHost
// from the built packages, with a FileTokenStore and a JsonFileAllowListStore on the same files)
// behind a loopback proxy that spreads the app's requests over them in turn, calling a Streamable
// HTTP MCP server on loopback that requires OAuth. "Always allow" given through one instance is
// honoured by the other, approvals given at the same moment are merged, and a token that expires
// for both at once is refreshed once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { authenticate, createRedirectFollowingOpener, FileTokenStore } from '@toolhost/oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import { startRoundRobinProxy, type RoundRobinProxy } from '@toolhost-internal/fixtures';
import { startDpopAuthorizationServer } from '../../oauth/src/testing/dpop-servers.js';
import { startProtectedMcpServer } from '../../oauth/src/testing/protected-mcp-server.js';

/** The package folder: a process started there imports the built `@toolhost/host` (and its dependencies). */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/**
 * The app: an McpToolHost on the shared stores, and an HTTP endpoint `POST /call` taking
 * `{ tool, answer }` (the user's answer should the host ask) and answering what happened.
 */
const APP = `
import { createServer } from 'node:http';
import { McpToolHost } from '@toolhost/host';
import { FileTokenStore } from '@toolhost/oauth';
import { JsonFileAllowListStore } from '@toolhost/confirmation/node';
const answers = new Map();
const asked = new Set();
const host = await McpToolHost.create({
  settings: { mcpServers: { secure: JSON.parse(process.env.SERVER_ENTRY) } },
  stores: {
    tokens: new FileTokenStore({ filePath: process.env.TOKEN_FILE }),
    approvals: new JsonFileAllowListStore({ filePath: process.env.ALLOW_LIST }),
  },
  ui: {
    confirm: async (request) => {
      asked.add(request.toolCallId);
      return answers.get(request.toolCallId) ?? 'cancel';
    },
  },
});
await host.discover();
let calls = 0;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', async () => {
    const { tool, answer } = JSON.parse(body);
    const id = process.env.INSTANCE + '-' + ++calls;
    answers.set(id, answer);
    const name = host.servers.listTools({ serverName: 'secure' }).find((t) => t.originalName === tool)?.name ?? tool;
    const result = await host.callTool({ name, arguments: {}, toolCallId: id });
    const text = result.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ instance: process.env.INSTANCE, asked: asked.has(id), isError: result.isError, errorCode: result.error?.code, text }));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\\n'));
process.on('SIGTERM', () => host.close().then(() => process.exit(0)));
`;

/** What the app answered about one call. */
interface CallAnswer {
  instance: string;
  asked: boolean;
  isError: boolean;
  errorCode?: string;
  text: string;
}

async function startApp(instance: string, env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', APP], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, ...env, INSTANCE: instance },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line && output.includes('\n')) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on('exit', (code) => reject(new Error(`app instance ${instance} exited (${code}): ${errors}`)));
  });
  return { child, port };
}

describe('two app instances behind a proxy, sharing the stores', () => {
  let folder: string;
  let as: Awaited<ReturnType<typeof startDpopAuthorizationServer>>;
  let mcp: Awaited<ReturnType<typeof startProtectedMcpServer>>;
  let proxy: RoundRobinProxy;
  const apps: ChildProcess[] = [];
  /** The access token of every request the MCP server checked, in order. */
  const presented: string[] = [];
  let tokenFile: string;
  let allowList: string;

  /** One app-level request through the proxy. */
  async function call(tool: string, answer: string): Promise<CallAnswer> {
    const response = await fetch(`${proxy.url}/call`, { method: 'POST', body: JSON.stringify({ tool, answer }) });
    expect(response.status).toBe(200);
    return (await response.json()) as CallAnswer;
  }

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'toolhost-shared-stores-'));
    tokenFile = join(folder, 'mcp-oauth-tokens.json');
    allowList = join(folder, 'mcp-allowlist.json');
    // Bearer tokens (no DPoP metadata); a refresh is answered after 300 ms, so concurrent ones overlap.
    as = await startDpopAuthorizationServer({ algs: null, scope: 'mcp:tools mcp:admin', refreshDelayMs: 300 });
    mcp = await startProtectedMcpServer({
      authorizationServers: () => [as.url],
      verifyAccessToken: (token) => {
        presented.push(token);
        return as.verifyAccessToken(token);
      },
    });
    const entry = { httpUrl: mcp.url, oauth: { redirectUri: 'http://localhost:0/oauth/callback', allowPrivateNetwork: true } };
    // The user signed in once; both instances use the token file.
    await authenticate('secure', entry, {
      tokenStore: new FileTokenStore({ filePath: tokenFile }),
      openBrowser: createRedirectFollowingOpener(),
    });
    const env = { SERVER_ENTRY: JSON.stringify(entry), TOKEN_FILE: tokenFile, ALLOW_LIST: allowList };
    const started = await Promise.all([startApp('1', env), startApp('2', env)]);
    apps.push(...started.map((s) => s.child));
    proxy = await startRoundRobinProxy(started.map((s) => s.port));
  });

  afterAll(async () => {
    await Promise.all(
      apps.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    proxy?.server.closeAllConnections();
    proxy?.server.close();
    await mcp?.close();
    await as?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('"always allow" given through one instance is honoured by the other; approvals given at the same moment are merged', async () => {
    // Both instances have served a call: each holds the (empty) allow-list.
    expect(await call('whoami', 'proceed_once')).toMatchObject({ instance: '1', asked: true, isError: false });
    expect(await call('whoami', 'proceed_once')).toMatchObject({ instance: '2', asked: true, isError: false });
    // At the same moment, the user of instance 1 always allows whoami, the user of instance 2 admin-op.
    const [first, second] = await Promise.all([call('whoami', 'proceed_always_tool'), call('admin-op', 'proceed_always_tool')]);
    expect(first).toMatchObject({ instance: '1', asked: true, isError: false });
    expect(second).toMatchObject({ instance: '2', asked: true, isError: false, text: 'admin ok' });
    // Each instance now runs the tool approved through the other without asking (the answer would be "cancel").
    expect(await call('admin-op', 'cancel')).toMatchObject({ instance: '1', asked: false, isError: false, text: 'admin ok' });
    expect(await call('whoami', 'cancel')).toMatchObject({ instance: '2', asked: false, isError: false });
    const stored = JSON.parse(await readFile(allowList, 'utf8')) as { tools: Array<{ toolName: string }> };
    expect(stored.tools.map((approval) => approval.toolName).sort()).toEqual(['admin-op', 'whoami']);
  });

  it('a token expiring for both instances at once is refreshed once, and both calls use the new token', async () => {
    const tokens = new FileTokenStore({ filePath: tokenFile });
    const before = await tokens.get('secure');
    if (!before) throw new Error('the sign-in stored no token');
    // The stored token now expires within the refresh window (5 minutes).
    await tokens.set({ ...before, token: { ...before.token, expiresAt: Date.now() + 60_000 } });
    const refreshesBefore = as.tokenRequests.filter((r) => r.grantType === 'refresh_token').length;
    const presentedBefore = presented.length;
    // Two requests at once: the proxy sends one to each instance.
    const answers = await Promise.all([call('whoami', 'proceed_once'), call('whoami', 'proceed_once')]);
    answers.sort((a, b) => a.instance.localeCompare(b.instance));
    expect(answers.map((a) => [a.instance, a.isError, a.errorCode])).toEqual([
      ['1', false, undefined],
      ['2', false, undefined],
    ]);
    expect(as.tokenRequests.filter((r) => r.grantType === 'refresh_token').length - refreshesBefore).toBe(1);
    const after = await tokens.get('secure');
    expect(after?.token.accessToken).not.toBe(before.token.accessToken);
    expect(after?.token.expiresAt).toBeGreaterThan(Date.now() + 3_000_000);
    // Both calls presented the refreshed token.
    expect(new Set(presented.slice(presentedBefore))).toEqual(new Set([after?.token.accessToken]));
  });
});
