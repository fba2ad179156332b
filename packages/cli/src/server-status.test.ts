import { describe, expect, it } from 'vitest';
import { loadSettings } from '@toolhost/config';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectServerStatuses, formatServerLine, formatServerRow, MAX_REASON_LENGTH, shortenReason } from './server-status.js';

describe('collectServerStatuses and formatServerLine', () => {
  it("connects only enabled servers through the check and formats the seeds' lines", async () => {
    const home = await mkdtemp(join(tmpdir(), 'toolhost-status-'));
    try {
      await mkdir(join(home, '.toolhost'));
      await writeFile(
        join(home, '.toolhost', 'settings.json'),
        JSON.stringify({
          mcpServers: {
            up: { command: 'node', args: ['s.js'] },
            down: { url: 'http://127.0.0.1:1/sse', type: 'sse' },
            off: { command: 'x' },
          },
          mcp: { excluded: ['off'] },
        }),
      );
      const settings = await loadSettings({ homeDir: home, env: {} });
      const checked: string[] = [];
      const statuses = await collectServerStatuses(settings, async (server) => {
        checked.push(server.name);
        if (server.name === 'down') throw new Error('refused\n  by peer');
        return { state: 'connected' };
      });
      expect(checked.sort()).toEqual(['down', 'up']);
      expect(statuses.map(({ server, status }) => formatServerLine(server, status))).toEqual([
        '✓ up: node s.js (stdio) - Connected [user]',
        '✗ down: http://127.0.0.1:1/sse (sse) - Disconnected [user]',
        '⛔ off: x (stdio) - Blocked (in mcp.excluded) [user]',
      ]);
      expect(statuses.flatMap((row) => formatServerRow(row))).toEqual([
        '✓ up: node s.js (stdio) - Connected [user]',
        '✗ down: http://127.0.0.1:1/sse (sse) - Disconnected [user]',
        '    Reason: refused by peer',
        '⛔ off: x (stdio) - Blocked (in mcp.excluded) [user]',
      ]);
      expect((await collectServerStatuses(settings)).map(({ status }) => status)).toEqual(['enabled', 'enabled', 'blocked']);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('untrusted project servers', () => {
  it('are blocked, never handed to the check, and say how to trust the folder', async () => {
    const root = await mkdtemp(join(tmpdir(), 'toolhost-status-'));
    try {
      const home = join(root, 'home');
      const project = join(root, 'repo');
      await mkdir(join(home, '.toolhost'), { recursive: true });
      await mkdir(join(project, '.toolhost'), { recursive: true });
      await writeFile(join(home, '.toolhost', 'settings.json'), JSON.stringify({ mcpServers: { mine: { command: 'mine' } } }));
      await writeFile(
        join(project, '.toolhost', 'settings.json'),
        JSON.stringify({ mcpServers: { cloned: { command: 'sh', args: ['evil.sh'] } } }),
      );
      const settings = await loadSettings({ homeDir: home, projectDir: project, env: {} });
      const checked: string[] = [];
      const statuses = await collectServerStatuses(settings, async (server) => {
        checked.push(server.name);
        return { state: 'connected' };
      });
      expect(checked).toEqual(['mine']);
      expect(statuses.flatMap((row) => formatServerRow(row))).toEqual([
        '✓ mine: mine (stdio) - Connected [user]',
        '⛔ cloned: sh evil.sh (stdio) - Blocked (project folder not trusted: run "toolhost trust") [project]',
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('shortenReason', () => {
  it('folds line breaks and cuts long reasons with an ellipsis', () => {
    expect(shortenReason('  a\n\tb  ')).toBe('a b');
    const long = shortenReason('x'.repeat(1000));
    expect(long).toHaveLength(MAX_REASON_LENGTH);
    expect(long.endsWith('…')).toBe(true);
  });
});
