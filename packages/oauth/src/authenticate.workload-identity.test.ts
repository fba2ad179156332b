import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { McpServerConfig } from '@toolhost/config';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import type { OAuthError } from './oauth-error.js';
import { StoredTokenOAuthProvider } from './stored-token-provider.js';
import {
  startProtectedMcpServer,
  startWorkloadIdentityAuthorizationServer,
  type WorkloadIdentityAuthorizationServer,
} from '@toolhost-internal/fixtures/oauth';

// Workload identity (SEP-1933): the RFC 7523 jwt-bearer grant with the token the workload's
// platform issued it, against a loopback authorization server that verifies each assertion
// (signature, issuer, audience, expiry) and a protected MCP server that only accepts its tokens.
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

let as: WorkloadIdentityAuthorizationServer;
let mcp: Awaited<ReturnType<typeof startProtectedMcpServer>>;
let dir: string;
let tokenFile: string;
const cleanup: Array<() => Promise<void>> = [];

beforeEach(async () => {
  as = await startWorkloadIdentityAuthorizationServer();
  mcp = await startProtectedMcpServer({ authorizationServers: () => [as.url], verifyAccessToken: (token) => as.verifyAccessToken(token) });
  dir = await mkdtemp(join(tmpdir(), 'toolhost-wif-'));
  tokenFile = join(dir, 'token');
  cleanup.push(as.close, mcp.close, () => rm(dir, { recursive: true, force: true }));
});

afterEach(async () => {
  for (const close of cleanup.splice(0).reverse()) await close();
});

const entry = (oauth: Record<string, unknown>): McpServerConfig => ({
  httpUrl: mcp.url,
  oauth: { grantType: 'jwt_bearer', allowPrivateNetwork: true, ...oauth },
});

async function connect(provider: StoredTokenOAuthProvider): Promise<Client> {
  const client = new Client({ name: 'wif-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcp.url), { authProvider: provider, fetch: provider.wrapFetch() }));
  cleanup.push(() => client.close());
  return client;
}

async function whoami(client: Client): Promise<{ clientId: string; scope: string }> {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { clientId: string; scope: string };
}

describe('grantType jwt_bearer (workload identity)', () => {
  it('sends the token file as the jwt-bearer assertion with resource and scope, without client or browser, and the MCP server accepts the token', async () => {
    const workloadToken = as.signWorkloadToken({ sub: 'system:serviceaccount:agents:router' });
    await writeFile(tokenFile, `${workloadToken}\n`);
    const provider = new StoredTokenOAuthProvider({
      serverName: 'tools',
      config: entry({ assertionFile: tokenFile }),
      tokenStore: new InMemoryTokenStore(),
    });
    const client = await connect(provider);
    expect(await whoami(client)).toEqual({ clientId: 'system:serviceaccount:agents:router', scope: 'mcp:tools' });
    expect(as.grants.map((grant) => grant.form)).toEqual([
      { grant_type: JWT_BEARER, assertion: workloadToken, scope: 'mcp:tools', resource: mcp.resource },
    ]);
    expect(as.grants[0]?.subject).toBe('system:serviceaccount:agents:router');
    expect(as.requests.find((request) => request.path === '/token')?.headers.authorization).toBeUndefined();
    expect(as.interactive).toEqual([]);
    expect(as.otherGrants).toEqual([]);
  });

  it('re-reads the rotated token file when the access token expires, and not before', async () => {
    let now = Date.now();
    as.tokenLifetime = 3600;
    const first = as.signWorkloadToken({ sub: 'workload-a' });
    await writeFile(tokenFile, first);
    const provider = new StoredTokenOAuthProvider({
      serverName: 'tools',
      config: entry({ assertionFile: tokenFile }),
      tokenStore: new InMemoryTokenStore(),
      now: () => now,
    });
    const client = await connect(provider);
    expect((await whoami(client)).clientId).toBe('workload-a');
    // The platform rotates the token (as kubelet does with a projected service-account token).
    const rotated = as.signWorkloadToken({ sub: 'workload-b' });
    await writeFile(tokenFile, rotated);
    expect((await whoami(client)).clientId).toBe('workload-a'); // the access token is still valid: no grant
    expect(as.grants).toHaveLength(1);
    now += 3_400_000; // within 5 minutes of expiry: the grant runs again with the file as it is now
    expect((await whoami(client)).clientId).toBe('workload-b');
    expect(as.grants.map((grant) => grant.form.assertion)).toEqual([first, rotated]);
    expect(as.interactive).toEqual([]);
  });

  it('reads oauth.assertionEnv at every grant, and authenticates as oauth.clientId when one is set', async () => {
    const env: Record<string, string> = { MCP_WORKLOAD_TOKEN: as.signWorkloadToken({ sub: 'from-env-1' }) };
    const tokenStore = new InMemoryTokenStore();
    const config = entry({ assertionEnv: 'MCP_WORKLOAD_TOKEN', clientId: 'workload-client' });
    await authenticate('tools', config, { tokenStore, env });
    env.MCP_WORKLOAD_TOKEN = as.signWorkloadToken({ sub: 'from-env-2' });
    const credentials = await authenticate('tools', config, { tokenStore, env });
    expect(as.grants.map((grant) => [grant.subject, grant.form.client_id])).toEqual([
      ['from-env-1', 'workload-client'],
      ['from-env-2', 'workload-client'],
    ]);
    expect(credentials).toMatchObject({ grantType: 'jwt_bearer', token: { accessToken: 'wif-at-2' } });
    expect(credentials.token.refreshToken).toBeUndefined();
  });

  it('fails with INVALID_CONFIG naming the server and the file when the token file is missing or empty, before any token request', async () => {
    const missing = await authenticate('tools', entry({ assertionFile: tokenFile })).catch((e: OAuthError) => e);
    expect(missing).toMatchObject({ code: 'INVALID_CONFIG', serverName: 'tools' });
    expect((missing as OAuthError).message).toContain(tokenFile);
    expect((missing as OAuthError).message).toContain("MCP server 'tools'");
    expect((missing as OAuthError).message).toContain('does not exist');
    await writeFile(tokenFile, '  \n');
    const empty = await authenticate('tools', entry({ assertionFile: tokenFile })).catch((e: OAuthError) => e);
    expect(empty).toMatchObject({ code: 'INVALID_CONFIG', serverName: 'tools' });
    expect((empty as OAuthError).message).toContain(`${tokenFile} of MCP server 'tools' (oauth.assertionFile) is empty`);
    await writeFile(tokenFile, 'not a jwt, a secret-looking value');
    const garbled = await authenticate('tools', entry({ assertionFile: tokenFile })).catch((e: OAuthError) => e);
    expect((garbled as OAuthError).message).toContain('is not a JWT');
    expect((garbled as OAuthError).message).not.toContain('secret-looking');
    expect(as.grants).toEqual([]);
  });

  it('reports a refused assertion once, with the server error, and never falls back to another grant or a browser', async () => {
    await writeFile(tokenFile, as.signWorkloadToken({ sub: 'w', aud: 'https://elsewhere.example/token' }));
    const tokenStore = new InMemoryTokenStore();
    let opened = 0;
    const error = await authenticate('tools', entry({ assertionFile: tokenFile }), {
      tokenStore,
      openBrowser: async () => {
        opened++;
      },
    }).catch((e: OAuthError) => e);
    expect(error).toMatchObject({ code: 'TOKEN_EXCHANGE_FAILED', oauthErrorCode: 'invalid_grant', serverName: 'tools' });
    expect((error as OAuthError).message).toContain('workload identity token (jwt-bearer grant)');
    expect(as.grants).toHaveLength(1);
    expect(as.otherGrants).toEqual([]);
    expect(as.interactive).toEqual([]);
    expect(opened).toBe(0);
    expect(await tokenStore.list()).toEqual([]);
  });

  it('refuses an authorization server that does not advertise the jwt-bearer grant', async () => {
    const codeOnly = await startWorkloadIdentityAuthorizationServer({ grantTypesSupported: ['authorization_code'] });
    cleanup.push(codeOnly.close);
    const other = await startProtectedMcpServer({ authorizationServers: () => [codeOnly.url], verifyAccessToken: async () => undefined });
    cleanup.push(other.close);
    await writeFile(tokenFile, codeOnly.signWorkloadToken({ sub: 'w' }));
    const error = await authenticate('tools', {
      httpUrl: other.url,
      oauth: { grantType: 'jwt_bearer', assertionFile: tokenFile, allowPrivateNetwork: true },
    }).catch((e: OAuthError) => e);
    expect(error).toMatchObject({ code: 'GRANT_TYPE_UNSUPPORTED' });
    expect(codeOnly.grants).toEqual([]);
    expect(codeOnly.interactive).toEqual([]);
  });
});
