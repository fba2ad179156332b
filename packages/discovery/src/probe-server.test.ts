import { startHttpFixture } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { probeServer } from './probe-server.js';
import { McpServerStatus } from './server-status.js';
import { stdioFixture } from './test-support.js';

describe('probeServer', () => {
  it('reports CONNECTED for servers that answer, over stdio and HTTP, in parallel', async () => {
    const remote = await startHttpFixture({ behaviour: 'basic' });
    try {
      const [local, http] = await Promise.all([
        probeServer('local', stdioFixture('empty', { noCapabilities: true })),
        probeServer('http', { httpUrl: remote.url }),
      ]);
      // A server that offers nothing still answers the handshake: mcp list shows it connected.
      expect(local).toMatchObject({ status: McpServerStatus.CONNECTED, transportType: 'stdio', error: undefined });
      expect(local.serverInfo?.name).toBe('fixture-empty');
      expect(http).toMatchObject({ status: McpServerStatus.CONNECTED, transportType: 'http' });
    } finally {
      await remote.close();
    }
  });

  it('reports DISCONNECTED with the reason when the server cannot be reached or is too slow', async () => {
    const [missing, slow] = await Promise.all([
      probeServer('missing', { command: '/nonexistent/toolhost-no-such-binary' }),
      probeServer('slow', stdioFixture('basic', { startupDelayMs: 60_000 }), { timeoutMs: 400 }),
    ]);
    expect(missing.status).toBe(McpServerStatus.DISCONNECTED);
    expect(missing.error?.code).toBe('CONNECT_FAILED');
    expect(missing.error?.message).toContain("'missing'");
    expect(slow.status).toBe(McpServerStatus.DISCONNECTED);
    expect(slow.error?.code).toBe('DISCOVERY_TIMEOUT');
    // The given timeout, not the 5 s default; and it ended the probe: a probe that waited for the
    // server would take the minute it sleeps before answering.
    expect(slow.error?.message).toContain('did not answer within 400 ms');
    expect(slow.durationMs).toBeLessThan(20_000);
  });
});
