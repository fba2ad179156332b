// probeServer (the check of `toolhost mcp list`) on a server's first start through a package
// runner, and on a server that exits before it answers: real processes, the fake npx of the fixtures.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath, writeFakePackageRunner } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROBE_TIMEOUT_MS, probeServer, probeTimeoutMs } from './probe-server.js';
import { McpServerStatus } from './server-status.js';

describe('probeServer on a first start', () => {
  it('gives a server started through npx the first-start bound, not 5 s, when its entry sets no timeout', () => {
    expect(probeTimeoutMs({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] })).toBe(60_000);
    expect(probeTimeoutMs({ command: 'uvx', args: ['mcp-server-fetch'] })).toBe(60_000);
    expect(probeTimeoutMs({ command: 'node', args: ['server.js'] })).toBe(DEFAULT_PROBE_TIMEOUT_MS);
    expect(probeTimeoutMs({ command: 'npx', args: ['-y', 'pkg'], timeout: 3000 })).toBe(3000);
    expect(probeTimeoutMs({ httpUrl: 'http://127.0.0.1:1/mcp' })).toBe(DEFAULT_PROBE_TIMEOUT_MS);
  });

  it.runIf(process.platform !== 'win32')(
    'connects a server whose npx install takes longer than 5 s',
    async () => {
      const runner = await writeFakePackageRunner({ folder: mkdtempSync(join(tmpdir(), 'toolhost-probe-npx-')), steps: 13, stepMs: 500 });
      const result = await probeServer('memory', { command: runner.command, args: ['-y', fixtureBinPath('basic')] });
      expect(result.error).toBeUndefined();
      expect(result).toMatchObject({ status: McpServerStatus.CONNECTED, transportType: 'stdio' });
      expect(result.durationMs).toBeGreaterThan(DEFAULT_PROBE_TIMEOUT_MS);
      expect(existsSync(runner.installed)).toBe(true);
    },
    90_000,
  );

  it('says once that a server exited with its code and stderr, the SDK detail apart', async () => {
    const script = join(mkdtempSync(join(tmpdir(), 'toolhost-probe-exit-')), 'exits.cjs');
    writeFileSync(script, `process.stderr.write('Error: DATABASE_URL is not set\\n'); process.exit(3);`);
    const result = await probeServer('db', { command: process.execPath, args: [script] });
    expect(result.status).toBe(McpServerStatus.DISCONNECTED);
    expect(result.error).toMatchObject({ code: 'CONNECT_FAILED', causeCode: 'CONNECTION_CLOSED' });
    expect(result.error?.message).toMatch(/^MCP server 'db' exited with code 3 before it answered: Error: DATABASE_URL is not set\. /);
    expect(result.error?.message).not.toContain('sibling');
    // The technical detail: the SDK's own words, for a debug view.
    expect(result.error?.detail).toContain('SdkError');
    expect(result.error?.detail).not.toContain('exited with code 3');
  });
});
