import { Client, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { fixtureBinPath, startHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport } from './connect-transport.js';
import { isAuthRequiredError } from './map-connect-error.js';
import { TransportError } from './transport-error.js';
import { newClient } from './test-helpers.js';

const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

/** Shaped like `@toolhost/oauth`'s OAuthError (a branded error with a stable code), without depending on it. */
class ProviderAuthError extends Error {
  readonly code = 'AUTH_REQUIRED';
  constructor(message: string) {
    super(message);
    Object.defineProperty(this, Symbol.for('toolhost.oauth'), { value: true });
  }
}

/** An auth provider that, like the host's stored-token provider, refuses to start a browser flow. */
function refusingProvider(thrown: Error[]): OAuthClientProvider {
  const refuse = (): never => {
    const error = new ProviderAuthError('MCP server \'locked\' requires authentication: run "/mcp auth locked".');
    thrown.push(error);
    throw error;
  };
  return {
    redirectUrl: 'http://127.0.0.1/callback',
    clientMetadata: { redirect_uris: ['http://127.0.0.1/callback'] },
    clientInformation: () => undefined,
    tokens: () => undefined,
    saveTokens: refuse,
    redirectToAuthorization: refuse,
    saveCodeVerifier: refuse,
    codeVerifier: refuse,
    discoveryState: refuse,
  } as OAuthClientProvider;
}

describe('mapConnectError', () => {
  it('keeps AUTH_REQUIRED when the auth provider throws it during connect (not CONNECT_FAILED)', async () => {
    const server = await startHttpFixture({ behaviour: 'basic', initializeStatus: 401 });
    fixtures.push(server);
    const thrown: Error[] = [];
    const failure = await connectTransport({
      serverName: 'locked',
      config: { httpUrl: server.url },
      client: newClient(),
      authProvider: refusingProvider(thrown),
      timeout: 10_000,
    }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown.length).toBeGreaterThan(0);
    expect(TransportError.isInstance(failure)).toBe(true);
    const error = failure as TransportError;
    expect(error.code).toBe('AUTH_REQUIRED');
    expect(error.status).toBe(401);
    expect(error.serverName).toBe('locked');
    expect(error.message).toContain('/mcp auth locked');
    expect(error.cause).toBe(thrown[0]);
    expect(error.wwwAuthenticate).toContain('resource_metadata');
  });

  it('recognises an AUTH_REQUIRED code on any error, and nothing else', () => {
    expect(isAuthRequiredError(new ProviderAuthError('x'))).toBe(true);
    expect(isAuthRequiredError(Object.assign(new Error('y'), { code: 'AUTH_REQUIRED' }))).toBe(true);
    expect(isAuthRequiredError(Object.assign(new Error('z'), { code: 'REFRESH_FAILED' }))).toBe(false);
    expect(isAuthRequiredError({ code: 'AUTH_REQUIRED' })).toBe(false);
  });
});

describe('revision mismatch after a slow version probe', () => {
  it('tells the user to pin the revision both speak when the server answered the probe too late', async () => {
    // The probe waits 300 ms; the 2026-07-28-only server starts after 1 s, then refuses the older handshake.
    const client = new Client(
      { name: 'slow-probe-test', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 300 } } },
    );
    const config = { command: process.execPath, args: [fixtureBinPath('basic'), '--era=modern', '--startup-delay-ms=1000'] };
    const error = await connectTransport({ serverName: 'slow', config, client, timeout: 60_000 }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(TransportError.isInstance(error) && error.code).toBe('PROTOCOL_VERSION_MISMATCH');
    const message = (error as TransportError).message;
    expect(message).toContain("MCP server 'slow'");
    expect(message).toContain('it speaks 2026-07-28');
    expect(message).toContain('pin "protocolVersion": "2026-07-28" in the entry');
    expect(message).toContain('did not answer the version probe (server/discover) in time');
    expect(message).not.toContain('share no revision');
  });
});
