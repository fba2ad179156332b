import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import { startHttpFixture, type HttpFixture } from '@toolhost-internal/fixtures';
import { ToolhostError } from '@toolhost/contract';
import { TransportError } from '@toolhost/transport';
import { afterEach, describe, expect, it } from 'vitest';
import { DiscoveryError } from './discovery-error.js';
import { McpServerManager } from './mcp-server-manager.js';
import { rootCauseCode } from './root-cause-code.js';
import { errorInfo } from './server-state.js';
import { McpServerStatus } from './server-status.js';

const managers: McpServerManager[] = [];
const fixtures: HttpFixture[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

/** Shaped like `@toolhost/oauth`'s OAuthError (this package does not depend on it): a toolhost error of family `oauth`. */
class BrandedOAuthError extends ToolhostError<'REFRESH_FAILED'> {
  static override readonly family = 'oauth';
  static override readonly codes = ['REFRESH_FAILED'] as const;
  constructor(message: string, code: 'REFRESH_FAILED') {
    super({ code, message });
  }
}

/** An auth provider whose stored token cannot be refreshed: every token read throws. */
function failingRefreshProvider(): OAuthClientProvider {
  const refuse = (): never => {
    throw new BrandedOAuthError("Refreshing the token of MCP server 'remote' failed.", 'REFRESH_FAILED');
  };
  return {
    redirectUrl: 'http://127.0.0.1/callback',
    clientMetadata: { redirect_uris: ['http://127.0.0.1/callback'] },
    clientInformation: () => ({ client_id: 'c' }),
    tokens: refuse,
    saveTokens: refuse,
    redirectToAuthorization: refuse,
    saveCodeVerifier: refuse,
    codeVerifier: refuse,
  };
}

describe('root cause codes', () => {
  it('walks the cause chain to the deepest toolhost error', () => {
    const oauth = new BrandedOAuthError('refresh failed', 'REFRESH_FAILED');
    const transport = new TransportError({ code: 'CONNECT_FAILED', message: 'could not connect', serverName: 'remote', cause: oauth });
    const discovery = new DiscoveryError({ code: 'CONNECT_FAILED', message: 'x', serverName: 'remote', cause: transport });
    expect(rootCauseCode(discovery)).toBe('REFRESH_FAILED');
    expect(errorInfo(discovery)).toMatchObject({ code: 'CONNECT_FAILED', causeCode: 'REFRESH_FAILED' });
  });

  it('keeps the immediate code when nothing below is a toolhost error, and survives cycles', () => {
    const node = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    expect(rootCauseCode(new Error('top', { cause: node }))).toBe('ECONNREFUSED');
    const transport = new TransportError({ code: 'SPAWN_FAILED', message: 'no such command', serverName: 's', cause: node });
    expect(rootCauseCode(new Error('top', { cause: transport }))).toBe('SPAWN_FAILED');
    const looping = new Error('a') as Error & { cause?: unknown };
    looping.cause = new Error('b', { cause: looping });
    expect(rootCauseCode(looping)).toBeUndefined();
    expect(rootCauseCode(undefined)).toBeUndefined();
  });

  it("puts an auth provider's code in the server's lastError (a real connect against loopback)", async () => {
    const server = await startHttpFixture({ behaviour: 'basic' });
    fixtures.push(server);
    const manager = new McpServerManager({
      servers: [{ name: 'remote', config: { httpUrl: server.url, timeout: 10_000 } }],
      transportOptions: () => ({ authProvider: failingRefreshProvider() }),
    });
    managers.push(manager);
    await manager.discoverAll();
    const snapshot = manager.getServer('remote');
    expect(snapshot?.status).toBe(McpServerStatus.DISCONNECTED);
    expect(snapshot?.lastError?.causeCode).toBe('REFRESH_FAILED');
  });
});
