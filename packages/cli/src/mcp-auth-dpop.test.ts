import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredOAuthCredentials } from '@toolhost/oauth';
import { dpopKeyThumbprint } from '@toolhost/oauth/protocol';
import { describe, expect, it } from 'vitest';
// The OAuth test servers of @toolhost/oauth are not exported from that package: imported by path.
import { startDpopAuthorizationServer, startProtectedMcpServer } from '@toolhost-internal/fixtures/oauth';
import { putProjectSettings, runToolhost, useTrustedProject } from './testing/run-toolhost.js';

// `toolhost mcp auth` and `toolhost mcp list` with the built binary against servers that use DPoP
// (RFC 9449): an authorization server that binds its tokens to the proof's key and requires its
// nonce, and a protected MCP server that requires its own nonce and checks every proof with jose.
const project = useTrustedProject('toolhost-cli-dpop-');
const tokenFile = () => join(project.place.home, '.toolhost', 'mcp-oauth-tokens.json');

describe('toolhost mcp auth with DPoP', () => {
  it('signs in with a DPoP proof, stores the key with the token (0600), and mcp list connects with DPoP proofs', async () => {
    const as = await startDpopAuthorizationServer({ nonce: 'required' });
    const mcp = await startProtectedMcpServer({
      authorizationServers: () => [as.url],
      verifyAccessToken: as.verifyAccessToken,
      dpop: { nonce: 'required' },
    });
    project.cleanups.push(as.close, mcp.close);
    await putProjectSettings(
      project.place,
      JSON.stringify({ mcpServers: { secure: { httpUrl: mcp.url, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } } } }),
    );

    const signIn = await runToolhost(['mcp', 'auth', 'secure'], { ...project.place, env: { TOOLHOST_TEST_BROWSER: 'follow-redirects' } });
    expect(signIn.stderr).toBe('');
    expect(signIn.code).toBe(0);
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    const [entry] = (JSON.parse(await readFile(tokenFile(), 'utf8')) as { entries: StoredOAuthCredentials[] }).entries;
    expect(entry?.token.tokenType).toBe('DPoP');
    const jkt = await dpopKeyThumbprint(entry!.dpopKey!);
    expect(as.tokenRequests.map((r) => [r.status, r.proof?.jkt])).toEqual([
      [400, jkt],
      [200, jkt],
    ]);

    const listed = await runToolhost(['mcp', 'list'], project.place);
    expect(listed.stdout).toContain(`✓ secure: ${mcp.url} (http) - Connected (MCP 2025-11-25) [project]\n`);
    const presented = mcp.seen.filter((request) => request.scheme !== undefined);
    expect(presented.length).toBeGreaterThan(0);
    expect(presented.every((request) => request.scheme === 'DPoP' && request.dpopProof?.jkt === jkt)).toBe(true);
    expect(mcp.accepted.at(-1)?.jkt).toBe(jkt);
  });
});
