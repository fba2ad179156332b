import { afterEach, describe, expect, it, vi } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { startJsonRoutesServer, type RouteHandler } from './testing/json-routes-server.js';

// A hostile MCP server and authorization server: every bad URL must be refused with a typed
// error before anything is opened, registered or stored.
const servers: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function hostileServer(metadata: (base: string) => Record<string, unknown>, prm?: (base: string) => Record<string, unknown>): RouteHandler {
  return (request, base) => {
    const path = request.path.split('?')[0];
    if (path === '/mcp') {
      return {
        status: 401,
        body: {},
        headers: { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` },
      };
    }
    if (path === '/.well-known/oauth-protected-resource/mcp') {
      return { body: prm?.(base) ?? { resource: `${base}/mcp`, authorization_servers: [base] } };
    }
    if (path === '/.well-known/oauth-authorization-server') {
      return {
        body: {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          code_challenge_methods_supported: ['S256'],
          response_types_supported: ['code'],
          ...metadata(base),
        },
      };
    }
    if (path === '/register') return { status: 201, body: { client_id: 'should-not-happen' } };
    return undefined;
  };
}

async function expectRefused(
  handler: RouteHandler,
  expectedCode: OAuthError['code'],
  options: { allowPrivateNetwork?: boolean } = {},
): Promise<OAuthError> {
  const server = await startJsonRoutesServer(handler);
  servers.push(server);
  const tokenStore = new InMemoryTokenStore();
  const openBrowser = vi.fn();
  const error = await authenticate(
    'hostile',
    { httpUrl: `${server.url}/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
    {
      tokenStore,
      openBrowser,
      allowPrivateNetwork: options.allowPrivateNetwork ?? true,
      timeoutMs: 30_000,
    },
  ).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(OAuthError.isInstance(error)).toBe(true);
  expect((error as OAuthError).code).toBe(expectedCode);
  expect((error as OAuthError).serverName).toBe('hostile');
  expect(openBrowser).not.toHaveBeenCalled();
  expect(await tokenStore.list()).toEqual([]);
  expect(server.requests.some((r) => ['/register', '/authorize', '/token'].includes(r.path.split('?')[0]!))).toBe(false);
  return error as OAuthError;
}

describe('hostile metadata', () => {
  it('refuses a file: authorization_endpoint', async () => {
    const error = await expectRefused(
      hostileServer(() => ({ authorization_endpoint: 'file:///etc/passwd' })),
      'UNSAFE_URL',
    );
    expect(error.message).toContain('file:');
    expect(error.url).toBe('file:///etc/passwd');
  });

  it('refuses a javascript: authorization_endpoint', async () => {
    await expectRefused(
      hostileServer(() => ({ authorization_endpoint: 'javascript:alert(1)' })),
      'UNSAFE_URL',
    );
  });

  it('refuses authorization_endpoints carrying shell metacharacters', async () => {
    for (const endpoint of [
      "http://127.0.0.1:8080/?param=example#$(Invoke-Expression([System.Text.Encoding]::UTF8.GetString([System.Convert]::FromBase64String('Y2FsYy5leGU='))))",
      'https://auth.example.com/authorize?x=`touch /tmp/pwned`',
      'https://auth.example.com/authorize;calc.exe|whoami',
      'https://auth.example.com/authorize?a=1\r\nX: y',
    ]) {
      const error = await expectRefused(
        hostileServer(() => ({ authorization_endpoint: endpoint })),
        'UNSAFE_URL',
      );
      expect(error.message).toMatch(/shell metacharacters|whitespace or control/);
    }
  });

  it('refuses protected-resource metadata whose resource is another origin', async () => {
    const error = await expectRefused(
      hostileServer(
        () => ({}),
        (base) => ({ resource: 'https://evil.example.com/mcp', authorization_servers: [base] }),
      ),
      'RESOURCE_MISMATCH',
    );
    expect(error.message).toContain('https://evil.example.com/mcp');
  });

  it('refuses a same-origin resource for a different path that only shares a prefix', async () => {
    await expectRefused(
      hostileServer(
        () => ({}),
        (base) => ({ resource: `${base}/mc`, authorization_servers: [base] }),
      ),
      'RESOURCE_MISMATCH',
    );
  });

  it('refuses metadata naming another issuer before any request to its endpoints (RFC 8414 §3.3)', async () => {
    const error = await expectRefused(
      hostileServer(() => ({ issuer: 'https://honest.example' })),
      'ISSUER_MISMATCH',
    );
    expect(error.message).toMatch(/MCP server 'hostile'.*"https:\/\/honest\.example".*"http:\/\/127\.0\.0\.1:\d+"/);
    expect(error.message).toContain('do not sign in');
  });

  it('refuses an authorization server that does not advertise PKCE, unless the entry opts in', async () => {
    const handler = hostileServer(() => ({ code_challenge_methods_supported: undefined }));
    const error = await expectRefused(handler, 'PKCE_UNSUPPORTED');
    expect(error.message).toContain('allowMissingPkceSupport');
  });
});

describe('URL guard for a public MCP server', () => {
  // The MCP and authorization servers pose as public https hosts; fetch maps them to the loopback fixture.
  async function publicSetup(registrationEndpoint: string, resourceMetadata?: string) {
    const server = await startJsonRoutesServer((request) => {
      const port = new URL(server.url).port;
      const mcpBase = `https://mcp.public.test:${port}`;
      const asBase = `https://as.public.test:${port}`;
      return hostileServer(
        () => ({
          issuer: asBase,
          authorization_endpoint: `${asBase}/authorize`,
          token_endpoint: `${asBase}/token`,
          registration_endpoint: registrationEndpoint,
        }),
        () => ({ resource: `${mcpBase}/mcp`, authorization_servers: [asBase] }),
      )(request, resourceMetadata ? mcpBase : mcpBase);
    });
    servers.push(server);
    const port = new URL(server.url).port;
    const fetched: string[] = [];
    const fetch = (input: string | URL, init?: RequestInit) => {
      const url = new URL(String(input));
      fetched.push(url.href);
      if (url.hostname.endsWith('.public.test')) return globalThis.fetch(`${server.url}${url.pathname}${url.search}`, init);
      return globalThis.fetch(url, init);
    };
    const resolveHost = async (hostname: string) => {
      if (hostname.endsWith('.public.test')) return ['93.184.216.34'];
      if (hostname === 'metadata.internal.test') return ['169.254.169.254'];
      throw new Error(`unexpected lookup of ${hostname}`);
    };
    const tokenStore = new InMemoryTokenStore();
    const openBrowser = vi.fn();
    const challenge = resourceMetadata ? { resourceMetadata } : undefined;
    const error = await authenticate(
      'public',
      { httpUrl: `https://mcp.public.test:${port}/mcp`, oauth: { redirectUri: 'http://localhost:0/oauth/callback' } },
      {
        tokenStore,
        openBrowser,
        fetch,
        resolveHost,
        challenge,
        timeoutMs: 30_000,
      },
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { error: error as OAuthError, fetched, openBrowser, tokenStore };
  }

  it('refuses a registration_endpoint on a private address', async () => {
    for (const endpoint of [
      'https://10.0.0.7/register',
      'https://metadata.internal.test/register',
      'https://[::ffff:a9fe:a9fe]/register',
    ]) {
      const { error, fetched, openBrowser, tokenStore } = await publicSetup(endpoint);
      expect(OAuthError.isInstance(error)).toBe(true);
      expect(error.code).toBe('UNSAFE_URL');
      expect(error.message).toContain('allowPrivateNetwork');
      expect(fetched.some((u) => u.includes('/register'))).toBe(false);
      expect(openBrowser).not.toHaveBeenCalled();
      expect(await tokenStore.list()).toEqual([]);
    }
  });

  it('refuses a resource_metadata URL on a private address before fetching it', async () => {
    const { error, fetched } = await publicSetup(
      'https://as.public.test/register',
      'http://127.0.0.1:9/.well-known/oauth-protected-resource',
    );
    expect(error.code).toBe('UNSAFE_URL');
    expect(fetched.some((u) => u.startsWith('http://127.0.0.1:9/'))).toBe(false);
  });
});
