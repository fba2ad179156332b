import { IssuerMismatchError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverAuthorizationServer } from './discover-authorization-server.js';
import { OAuthError } from './oauth-error.js';
import { startJsonRoutesServer, type RouteAnswer } from '@toolhost-internal/fixtures/oauth';
import { createUrlGuard } from './url-guard.js';

const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const asMetadata = (base: string, extra: Record<string, unknown> = {}) => ({
  issuer: base,
  authorization_endpoint: `${base}/authorize`,
  token_endpoint: `${base}/token`,
  code_challenge_methods_supported: ['S256'],
  ...extra,
});

async function run(
  routes: Record<string, (base: string) => RouteAnswer>,
  options: { serverPath?: string; resourceMetadata?: (base: string) => string; issuer?: string } = {},
) {
  const server = await startJsonRoutesServer((request, base) => routes[request.path.split('?')[0]!]?.(base));
  servers.push(server);
  const serverUrl = `${server.url}${options.serverPath ?? '/mcp'}`;
  const result = await discoverAuthorizationServer({
    serverName: 'unit',
    serverUrl,
    config: options.issuer ? { issuer: options.issuer } : undefined,
    challenge: options.resourceMetadata ? { resourceMetadata: options.resourceMetadata(server.url) } : undefined,
    guard: createUrlGuard({ serverName: 'unit', mcpServerUrl: serverUrl }),
    fetch: (input, init) => globalThis.fetch(input, init),
  }).then(
    (r) => r,
    (e: unknown) => e,
  );
  return { result, paths: server.requests.map((r) => r.path), base: server.url };
}

describe('discoverAuthorizationServer', () => {
  it('uses the resource_metadata URL of the challenge and never asks the well-known URLs', async () => {
    const { result, paths } = await run(
      {
        '/custom/prm.json': (base) => ({ body: { resource: `${base}/mcp`, authorization_servers: [`${base}/tenant1`] } }),
        '/tenant1/.well-known/openid-configuration': (base) => ({ body: asMetadata(`${base}/tenant1`) }),
      },
      { resourceMetadata: (base) => `${base}/custom/prm.json` },
    );
    expect(paths).toEqual([
      '/custom/prm.json',
      '/.well-known/oauth-authorization-server/tenant1',
      '/.well-known/openid-configuration/tenant1',
      '/tenant1/.well-known/openid-configuration',
    ]);
    expect(result).toMatchObject({ resourceMetadataUrl: expect.stringContaining('/custom/prm.json') });
  });

  it('tries the path-inserted protected-resource URL, then the root, then RFC 8414 before OpenID at the root', async () => {
    const { result, paths, base } = await run({
      '/.well-known/oauth-protected-resource': (b) => ({
        body: { resource: `${b}/mcp`, authorization_servers: [b], scopes_supported: ['a', 'b'] },
      }),
      '/.well-known/openid-configuration': (b) => ({ body: asMetadata(b) }),
    });
    expect(paths).toEqual([
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
    ]);
    expect(result).toMatchObject({
      resource: `${base}/mcp`,
      resourceScopesSupported: ['a', 'b'],
      authorizationServer: { tokenEndpoint: `${base}/token` },
    });
  });

  it('stops at the path-inserted protected-resource URL when it answers', async () => {
    const { paths } = await run({
      '/.well-known/oauth-protected-resource/mcp': (b) => ({ body: { resource: `${b}/mcp/`, authorization_servers: [b] } }),
      '/.well-known/oauth-authorization-server': (b) => ({ body: asMetadata(b) }),
    });
    expect(paths).toEqual(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server']);
  });

  it('accepts a root resource for a server below it, and a trailing slash', async () => {
    const { result } = await run(
      {
        '/.well-known/oauth-protected-resource/api/mcp': (b) => ({ body: { resource: `${b}/`, authorization_servers: [b] } }),
        '/.well-known/oauth-authorization-server': (b) => ({ body: asMetadata(b) }),
      },
      { serverPath: '/api/mcp' },
    );
    expect(OAuthError.isInstance(result)).toBe(false);
  });

  it('refuses a resource that is a sibling path (/api vs /api123)', async () => {
    const { result } = await run(
      {
        '/.well-known/oauth-protected-resource/api123': (b) => ({ body: { resource: `${b}/api`, authorization_servers: [b] } }),
      },
      { serverPath: '/api123' },
    );
    expect((result as OAuthError).code).toBe('RESOURCE_MISMATCH');
  });

  it('falls back to the server origin and sends the canonical server URL as resource without metadata', async () => {
    const { result, paths, base } = await run(
      {
        '/.well-known/oauth-authorization-server': (b) => ({ body: asMetadata(b) }),
      },
      { serverPath: '/mcp?x=1' },
    );
    expect(paths.slice(0, 2)).toEqual(['/.well-known/oauth-protected-resource/mcp?x=1', '/.well-known/oauth-protected-resource']);
    expect(result).toMatchObject({ authorizationServerUrl: base, resource: `${base}/mcp` });
  });

  it('reports DISCOVERY_FAILED listing the URLs tried when the resource names an authorization server without metadata', async () => {
    const { result } = await run({
      '/.well-known/oauth-protected-resource/mcp': (b) => ({ body: { resource: `${b}/mcp`, authorization_servers: [`${b}/as`] } }),
    });
    expect((result as OAuthError).code).toBe('DISCOVERY_FAILED');
    expect((result as OAuthError).message).toContain('/as/.well-known/openid-configuration');
  });

  it('uses the 2025-03-26 default endpoints at the server origin when no metadata exists at all', async () => {
    const { result, base } = await run({}, { serverPath: '/api/mcp' });
    expect(result).toMatchObject({
      authorizationServerUrl: base,
      resource: `${base}/api/mcp`,
      authorizationServer: {
        authorizationEndpoint: `${base}/authorize`,
        tokenEndpoint: `${base}/token`,
        registrationEndpoint: `${base}/register`,
        usesDefaultEndpoints: true,
      },
    });
  });

  it('does not fall back to default endpoints when an issuer is configured', async () => {
    const server = await startJsonRoutesServer(() => undefined);
    servers.push(server);
    const serverUrl = `${server.url}/mcp`;
    const result = await discoverAuthorizationServer({
      serverName: 'unit',
      serverUrl,
      config: { issuer: `${server.url}/elsewhere` },
      guard: createUrlGuard({ serverName: 'unit', mcpServerUrl: serverUrl }),
      fetch: (input, init) => globalThis.fetch(input, init),
    }).catch((e: unknown) => e);
    expect((result as OAuthError).code).toBe('DISCOVERY_FAILED');
  });

  it('accepts metadata without an authorization endpoint for the client credentials grant', async () => {
    const server = await startJsonRoutesServer((request, base) =>
      request.path.startsWith('/.well-known/oauth-authorization-server')
        ? { body: { issuer: base, token_endpoint: `${base}/token`, grant_types_supported: ['client_credentials'] } }
        : undefined,
    );
    servers.push(server);
    const serverUrl = `${server.url}/mcp`;
    const common = {
      serverName: 'unit',
      serverUrl,
      guard: createUrlGuard({ serverName: 'unit', mcpServerUrl: serverUrl }),
      fetch: globalThis.fetch,
    };
    const result = await discoverAuthorizationServer({ ...common, config: { grantType: 'client_credentials' } });
    expect(result.authorizationServer).toMatchObject({ tokenEndpoint: `${server.url}/token`, grantTypesSupported: ['client_credentials'] });
    expect(result.authorizationServer.authorizationEndpoint).toBeUndefined();
    const refused = await discoverAuthorizationServer(common).catch((e: unknown) => e);
    expect((refused as OAuthError).code).toBe('INVALID_METADATA');
  });

  it('refuses metadata whose issuer is not the one it was discovered for (RFC 8414 §3.3), before using any endpoint', async () => {
    const { result, paths, base } = await run({
      '/.well-known/oauth-protected-resource/mcp': (b) => ({ body: { resource: `${b}/mcp`, authorization_servers: [`${b}/tenant1`] } }),
      '/.well-known/oauth-authorization-server/tenant1': () => ({ body: asMetadata('https://honest.example') }),
    });
    const error = result as OAuthError;
    expect(error.code).toBe('ISSUER_MISMATCH');
    expect(error.url).toBe(`${base}/.well-known/oauth-authorization-server/tenant1`);
    expect(error.message).toContain(`MCP server 'unit'`);
    expect(error.message).toContain('"https://honest.example"');
    expect(error.message).toContain(`"${base}/tenant1"`);
    expect(error.message).toContain('authorization_servers');
    // The SDK's error for this check is the cause.
    expect(IssuerMismatchError.isInstance(error.cause)).toBe(true);
    expect(error.cause).toMatchObject({ kind: 'metadata', expected: `${base}/tenant1`, received: 'https://honest.example' });
    // Nothing after the metadata document was requested (the first candidate answered).
    expect(paths).toEqual(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server/tenant1']);
  });

  it('refuses metadata without an issuer, and compares the issuer exactly (one trailing slash aside)', async () => {
    const { result: missing } = await run({
      '/.well-known/oauth-authorization-server': (b) => ({ body: asMetadata(b, { issuer: undefined }) }),
    });
    expect((missing as OAuthError).code).toBe('ISSUER_MISMATCH');
    expect((missing as OAuthError).message).toContain('names the issuer (none)');
    const { result: otherCase } = await run({
      '/.well-known/oauth-protected-resource/mcp': (b) => ({ body: { resource: `${b}/mcp`, authorization_servers: [`${b}/Tenant`] } }),
      '/.well-known/oauth-authorization-server/Tenant': (b) => ({ body: asMetadata(`${b}/tenant`) }),
    });
    expect((otherCase as OAuthError).code).toBe('ISSUER_MISMATCH');
    const { result: slash } = await run({
      '/.well-known/oauth-protected-resource/mcp': (b) => ({ body: { resource: `${b}/mcp`, authorization_servers: [`${b}/`] } }),
      '/.well-known/oauth-authorization-server': (b) => ({ body: asMetadata(b) }),
    });
    expect(OAuthError.isInstance(slash)).toBe(false);
    expect(slash).toMatchObject({ authorizationServers: [expect.stringMatching(/\/$/)] });
  });

  it('refuses metadata without the code response type', async () => {
    const { result } = await run({
      '/.well-known/oauth-authorization-server': (b) => ({ body: asMetadata(b, { response_types_supported: ['token'] }) }),
    });
    expect((result as OAuthError).code).toBe('INVALID_METADATA');
  });
});
