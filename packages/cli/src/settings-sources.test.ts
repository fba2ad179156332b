import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { untrustFolder } from '@toolhost/config/trust';
import { describe, expect, it } from 'vitest';
import { put, runToolhost, useTrustedProject } from './testing/run-toolhost.js';

// `toolhost mcp list` (the built binary) reads the same sources as McpToolHost: the system files
// of the program of --app-dir, variables in every string, the .env file, mcp.serverCommand.
// Build first: `pnpm --filter @toolhost-internal/fixtures build` and `pnpm --filter @toolhost/cli build`.
const project = useTrustedProject('toolhost-cli-sources-');
const list = (args: string[] = [], env: Record<string, string> = {}) =>
  runToolhost([...args, 'mcp', 'list'], { ...project.place, env: { ...project.place.env, ...env } });

/** A stdio entry that writes `marker` as soon as it starts, then runs the basic fixture server. */
function markingServer(marker: string): { command: string; args: string[] } {
  const script =
    "require('node:fs').writeFileSync(process.argv[1], 'ran'); import(require('node:url').pathToFileURL(process.argv[2]).href)";
  return { command: process.execPath, args: ['-e', script, marker, fixtureBinPath('basic')] };
}

describe('toolhost mcp list: sources of the settings', () => {
  it("shows a server the administrator excluded in Gemini CLI's system file Blocked, and never starts it", async () => {
    const system = join(project.root, 'gemini-admin', 'settings.json');
    const markers = { guarded: join(project.root, 'guarded.ran'), free: join(project.root, 'free.ran') };
    await put(
      join(project.place.home, '.gemini', 'settings.json'),
      JSON.stringify({ mcpServers: { guarded: markingServer(markers.guarded), free: markingServer(markers.free) } }),
    );
    await put(system, JSON.stringify({ mcp: { excluded: ['guarded'] } }));
    const result = await list(['--app-dir', '.gemini'], { GEMINI_CLI_SYSTEM_SETTINGS_PATH: system });
    expect(result.stderr).toBe('');
    const lines = result.stdout.split('\n');
    expect(lines.find((line) => line.includes(' guarded: '))).toMatch(/^⛔ guarded: .* \(stdio\) - Blocked \(in mcp\.excluded\) \[user\]$/);
    expect(lines.find((line) => line.includes(' free: '))).toMatch(/^✓ free: .* - Connected .*\[user\]$/);
    expect(existsSync(markers.free)).toBe(true);
    expect(existsSync(markers.guarded)).toBe(false);
  });

  it('reads the system defaults file next to the system file, below the user file', async () => {
    const system = join(project.root, 'admin', 'settings.json');
    await put(join(dirname(system), 'system-defaults.json'), JSON.stringify({ mcpServers: { base: { command: 'from-defaults' } } }));
    await put(join(project.place.home, '.toolhost', 'settings.json'), JSON.stringify({ mcp: { excluded: ['nothing'] } }));
    const result = await runToolhost(['mcp', 'list', '--no-connect'], {
      ...project.place,
      env: { TOOLHOST_SYSTEM_SETTINGS_PATH: system },
    });
    expect(result.stdout).toContain('base: from-defaults (stdio) - Enabled [system-defaults]');
  });

  it('connects a server whose command is "$NODE_DIR/<node>", shown as written', async () => {
    await put(
      join(project.place.home, '.toolhost', 'settings.json'),
      JSON.stringify({ mcpServers: { expanded: { command: `$NODE_DIR/${basename(process.execPath)}`, args: ['${FIXTURE_BIN}'] } } }),
    );
    const result = await list([], { NODE_DIR: dirname(process.execPath), FIXTURE_BIN: fixtureBinPath('basic') });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`✓ expanded: $NODE_DIR/${basename(process.execPath)} \${FIXTURE_BIN} (stdio) - Connected`);
  });

  it('takes variables from the .env file of the trusted project folder, and not once the folder is untrusted', async () => {
    await put(
      join(project.place.home, '.toolhost', 'settings.json'),
      JSON.stringify({ mcpServers: { fromEnvFile: { command: '${SERVER_NODE}', args: ['${SERVER_BIN}'] } } }),
    );
    await put(join(project.place.cwd, '.env'), `SERVER_NODE=${process.execPath}\nSERVER_BIN=${fixtureBinPath('basic')}\n`);
    const trusted = await list();
    expect(trusted.stderr).toBe('');
    expect(trusted.stdout).toContain('✓ fromEnvFile: ${SERVER_NODE} ${SERVER_BIN} (stdio) - Connected');

    await untrustFolder({ homeDir: project.place.home, folder: project.place.cwd });
    const untrusted = await list();
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toBe('No MCP servers configured.\n');
    expect(untrusted.stderr).toContain('Warning [UNSET_ENV_VAR]');
    expect(untrusted.stderr).toContain('"SERVER_NODE"');
    expect(untrusted.stderr).toContain('Error [INVALID_VALUE]');
    await rm(join(project.place.cwd, '.env'));
  });

  it('lists and connects the server "mcp" of mcp.serverCommand', async () => {
    await put(
      join(project.place.home, '.toolhost', 'settings.json'),
      JSON.stringify({ mcp: { serverCommand: `"$NODE" '${fixtureBinPath('basic')}' --era=modern` } }),
    );
    const result = await list([], { NODE: process.execPath });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`✓ mcp: \${NODE} ${fixtureBinPath('basic')} --era=modern (stdio) - Connected (MCP 2026-07-28) [user]`);
  });
});
