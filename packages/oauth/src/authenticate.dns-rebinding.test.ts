import dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authenticate } from './authenticate.js';
import { InMemoryTokenStore } from './in-memory-token-store.js';
import { OAuthError } from './oauth-error.js';
import { StoredTokenOAuthProvider } from './stored-token-provider.js';

// DNS rebinding: the URL guard resolves a learned host name to a public address and lets it
// through, then the request resolves the name again and gets loopback. `localhost` plays the
// rebinding name: the guard's `resolveHost` says it is public (93.184.216.34), the system
// resolver says 127.0.0.1, where a hostile server counts every connection it gets.

const PUBLIC_ADDRESS = '93.184.216.34';

interface CountingServer {
  port: number;
  hits: () => number;
  close: () => Promise<void>;
}

/** A TCP server on 127.0.0.1 that counts connections and drops each one at once. */
async function startCountingServer(): Promise<CountingServer> {
  let hits = 0;
  const server = net.createServer((socket) => {
    hits++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;
type LookupFunction = (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => void;

/**
 * Test instrumentation, not part of the code under test: records the addresses every TLS
 * connection of this process resolved to (through its own `lookup` option or `dns.lookup`), lets
 * loopback through and refuses anything else at once, so no packet leaves the machine and a
 * connection to the vetted public address fails fast instead of waiting for a timeout.
 */
function watchTlsDestinations(): string[] {
  const destinations: string[] = [];
  const originalConnect = tls.connect.bind(tls) as (...args: unknown[]) => tls.TLSSocket;
  vi.spyOn(tls, 'connect').mockImplementation(((...args: unknown[]) => {
    const options = args[0];
    if (typeof options !== 'object' || options === null) return originalConnect(...args);
    const inner = ((options as { lookup?: LookupFunction }).lookup ?? dns.lookup) as LookupFunction;
    const lookup: LookupFunction = (hostname, lookupOptions, callback) =>
      inner(hostname, lookupOptions, (error, address, family) => {
        if (error) return callback(error, address, family);
        const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
        destinations.push(...addresses);
        if (addresses.every((a) => a === '127.0.0.1' || a === '::1')) return callback(null, address, family);
        const refused: NodeJS.ErrnoException = new Error(`test: refused a connection to ${addresses.join(', ')}`);
        refused.code = 'ECONNREFUSED';
        callback(refused, address, family);
      });
    return originalConnect({ ...options, lookup }, ...args.slice(1));
  }) as unknown as typeof tls.connect);
  return destinations;
}

let hostile: CountingServer;
let destinations: string[];
beforeEach(async () => {
  hostile = await startCountingServer();
  destinations = watchTlsDestinations();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await hostile.close();
});

/** A client-credentials flow against `https://localhost:<hostile port>`, whose metadata URL comes from the challenge. */
function authenticateAgainstRebindingHost(options: { resolveHost: () => Promise<string[]>; allowPrivateNetwork?: boolean }) {
  const base = `https://localhost:${hostile.port}`;
  return authenticate(
    'rebinding',
    { httpUrl: `${base}/mcp`, oauth: { grantType: 'client_credentials', clientId: 'client', clientSecret: 'secret' } },
    {
      tokenStore: new InMemoryTokenStore(),
      challenge: { resourceMetadata: `${base}/.well-known/oauth-protected-resource/mcp` },
      resolveHost: options.resolveHost,
      ...(options.allowPrivateNetwork !== undefined ? { allowPrivateNetwork: options.allowPrivateNetwork } : {}),
    },
  ).then(
    () => {
      throw new Error('authenticate() succeeded against a server that drops every connection');
    },
    (error: unknown) => error,
  );
}

describe('DNS rebinding', () => {
  it('connects only to the addresses the URL guard vetted, never to what a second DNS lookup returns', async () => {
    const error = await authenticateAgainstRebindingHost({ resolveHost: async () => [PUBLIC_ADDRESS] });

    // Every request of the flow (protected-resource and authorization-server metadata, token
    // endpoint) went to the vetted public address; the loopback server saw none of them.
    expect(hostile.hits()).toBe(0);
    expect(destinations.length).toBeGreaterThan(0);
    expect(new Set(destinations)).toEqual(new Set([PUBLIC_ADDRESS]));
    expect(OAuthError.isInstance(error)).toBe(true);
    expect((error as OAuthError).code).toBe('TOKEN_EXCHANGE_FAILED');
  });

  it('leaves a private MCP server as before: requests resolve the host name themselves', async () => {
    const error = await authenticateAgainstRebindingHost({ resolveHost: async () => ['127.0.0.1'] });

    expect(hostile.hits()).toBeGreaterThan(0);
    expect(destinations).toContain('127.0.0.1');
    expect(destinations).not.toContain(PUBLIC_ADDRESS);
    expect((error as OAuthError).code).toBe('TOKEN_EXCHANGE_FAILED');
  });

  it('leaves allowPrivateNetwork as before: requests resolve the host name themselves', async () => {
    const error = await authenticateAgainstRebindingHost({ resolveHost: async () => [PUBLIC_ADDRESS], allowPrivateNetwork: true });

    expect(hostile.hits()).toBeGreaterThan(0);
    expect(destinations).toContain('127.0.0.1');
    expect(destinations).not.toContain(PUBLIC_ADDRESS);
    expect((error as OAuthError).code).toBe('TOKEN_EXCHANGE_FAILED');
  });

  it('refreshes a stored token at the address the guard vets at refresh time, not at what DNS says next', async () => {
    const base = `https://localhost:${hostile.port}`;
    const tokenStore = new InMemoryTokenStore();
    await tokenStore.set({
      serverName: 'rebinding',
      issuer: base,
      mcpServerUrl: `${base}/mcp`,
      resource: `${base}/mcp`,
      tokenEndpoint: `${base}/token`,
      client: { clientId: 'client', source: 'dynamic-registration' },
      token: { accessToken: 'old', tokenType: 'Bearer', refreshToken: 'refresh', expiresAt: Date.now() + 60_000 },
      updatedAt: Date.now(),
    });
    const provider = new StoredTokenOAuthProvider({
      serverName: 'rebinding',
      config: { httpUrl: `${base}/mcp` },
      tokenStore,
      resolveHost: async () => [PUBLIC_ADDRESS],
    });

    // The refresh fails transiently (the vetted address refuses), so the still-valid token is used.
    expect((await provider.tokens())?.access_token).toBe('old');
    expect(hostile.hits()).toBe(0);
    expect(new Set(destinations)).toEqual(new Set([PUBLIC_ADDRESS]));
  });
});
