// Workload identity (SEP-1933, `oauth.grantType: "jwt_bearer"`) through McpToolHost, for a
// headless agent: the host obtains its token with the RFC 7523 jwt-bearer grant and the workload
// identity token from a file (as a Kubernetes projected service-account token is mounted), never
// with a browser, against a loopback authorization server that verifies each assertion and a
// protected MCP server (2025-11-25 and 2026-07-28) that accepts only that server's tokens.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTokenStore } from '@toolhost/oauth';
import { afterEach, describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import { startProtectedMcpServer, startWorkloadIdentityAuthorizationServer } from '@toolhost-internal/fixtures/oauth';
import { McpToolHost } from './mcp-tool-host.js';

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function setUp(era: '2025' | '2026-07-28') {
  const as = await startWorkloadIdentityAuthorizationServer();
  closing.push(as.close);
  const mcp = await startProtectedMcpServer({
    era,
    authorizationServers: () => [as.url],
    verifyAccessToken: (token) => as.verifyAccessToken(token),
  });
  closing.push(mcp.close);
  const dir = await mkdtemp(join(tmpdir(), 'toolhost-wif-host-'));
  closing.push(() => rm(dir, { recursive: true, force: true }));
  return { as, mcp, tokenFile: join(dir, 'token') };
}

/** A host on one entry `agents`; every browser open and sign-in announcement is recorded. */
async function hostFor(url: string, oauth: Record<string, unknown>, revision: '2025-11-25' | '2026-07-28', env?: Record<string, string>) {
  const opened: string[] = [];
  const signIns: string[] = [];
  const host = await McpToolHost.create({
    settings: {
      mcpServers: { agents: { httpUrl: url, trust: true, protocolVersion: revision, oauth: { allowPrivateNetwork: true, ...oauth } } },
    },
    ...(env ? { env } : {}),
    stores: { tokens: new InMemoryTokenStore() },
    ui: {
      openBrowser: async (target) => {
        opened.push(target);
      },
    },
  });
  closing.push(() => host.close());
  host.on('sign-in-start', (event) => signIns.push(event.url));
  return { host, opened, signIns };
}

async function whoami(host: McpToolHost): Promise<string> {
  const result = await host.callTool({ name: 'whoami', arguments: {} });
  if (result.error) throw new Error(`whoami failed: ${result.display}`);
  return (JSON.parse(result.display) as { clientId: string }).clientId;
}

describe.each([
  ['2025-11-25', '2025'],
  ['2026-07-28', '2026-07-28'],
] as const)('workload identity through McpToolHost, MCP %s', (revision, era) => {
  it('connects with the jwt-bearer grant and the token file, without an authorization request or a browser', async () => {
    const { as, mcp, tokenFile } = await setUp(era);
    const workloadToken = as.signWorkloadToken({ sub: 'spiffe://cluster.local/ns/agents/sa/router' });
    await writeFile(tokenFile, workloadToken);
    const { host, opened, signIns } = await hostFor(mcp.url, { grantType: 'jwt_bearer', assertionFile: tokenFile }, revision);
    const server = (await host.discover()).servers.find((entry) => entry.name === 'agents');
    expect(server).toMatchObject({ status: 'CONNECTED' });
    expect(await whoami(host)).toBe('spiffe://cluster.local/ns/agents/sa/router');
    expect(as.grants.map((grant) => grant.form)).toEqual([
      { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: workloadToken, scope: 'mcp:tools', resource: mcp.resource },
    ]);
    expect(as.interactive).toEqual([]);
    expect(as.otherGrants).toEqual([]);
    expect(opened).toEqual([]);
    expect(signIns).toEqual([]);
  });

  it('repeats the grant with the rotated token file once the access token expires', async () => {
    const { as, mcp, tokenFile } = await setUp(era);
    as.tokenLifetime = 1; // expires at once (tokens are renewed 5 minutes early): every request needs a grant
    const first = as.signWorkloadToken({ sub: 'pod-generation-1' });
    await writeFile(tokenFile, first);
    const { host, opened } = await hostFor(mcp.url, { grantType: 'jwt_bearer', assertionFile: tokenFile }, revision);
    await host.discover();
    expect(await whoami(host)).toBe('pod-generation-1');
    const grantsBefore = as.grants.length;
    const rotated = as.signWorkloadToken({ sub: 'pod-generation-2' });
    await writeFile(tokenFile, rotated);
    expect(await whoami(host)).toBe('pod-generation-2');
    const after = as.grants.slice(grantsBefore);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((grant) => grant.form.assertion === rotated)).toBe(true);
    expect(as.interactive).toEqual([]);
    expect(opened).toEqual([]);
  });

  it('reports a missing token file naming the server and the file, and never falls back to a browser sign-in', async () => {
    const { as, mcp, tokenFile } = await setUp(era);
    const { host, opened, signIns } = await hostFor(
      mcp.url,
      { enabled: true, grantType: 'jwt_bearer', assertionFile: tokenFile },
      revision,
    );
    const server = (await host.discover()).servers.find((entry) => entry.name === 'agents');
    expect(server?.status).not.toBe('CONNECTED');
    expect(server?.lastError).toContain(tokenFile);
    expect(server?.lastError).toContain("MCP server 'agents'");
    // `/mcp auth agents` runs the same grant, and fails the same way.
    const again = (await host.servers.authenticate({ serverName: 'agents' }).catch((error: Error) => error)) as Error;
    expect(again.message).toContain(tokenFile);
    expect(as.grants).toEqual([]);
    expect(as.interactive).toEqual([]);
    expect(opened).toEqual([]);
    expect(signIns).toEqual([]);
  });
});

describe('workload identity settings in McpToolHost', () => {
  it('reads oauth.assertionEnv from the host environment (the env option)', async () => {
    const { as, mcp } = await setUp('2025');
    const env = { MCP_WORKLOAD_TOKEN: as.signWorkloadToken({ sub: 'from-host-env' }) };
    const { host, opened } = await hostFor(mcp.url, { grantType: 'jwt_bearer', assertionEnv: 'MCP_WORKLOAD_TOKEN' }, '2025-11-25', env);
    await host.discover();
    expect(await whoami(host)).toBe('from-host-env');
    expect(as.grants.map((grant) => grant.form.assertion)).toEqual([env.MCP_WORKLOAD_TOKEN]);
    expect(opened).toEqual([]);
  });

  it('does not load an entry whose jwt_bearer grant has no token source, and says which field to set', async () => {
    const { host } = await hostFor('https://mcp.example/mcp', { grantType: 'jwt_bearer' }, '2025-11-25');
    expect(host.servers.list().map((server) => server.name)).toEqual([]);
    const warning = host.servers.status().warnings.find((entry) => entry.serverName === 'agents');
    expect(warning).toMatchObject({ code: 'INVALID_VALUE' });
    expect(warning?.message).toContain('mcpServers.agents.oauth.grantType');
    expect(warning?.message).toContain('oauth.assertionFile');
  });
});
