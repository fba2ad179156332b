import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';

// Where McpToolHost reads settings from besides the user and project files: the administrator's
// system files (found as the `toolhost` command line finds them), variables in every string, the
// project's .env file, and mcp.serverCommand.

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolhost-sources-'));
  dirs.push(dir);
  return dir;
}

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** A stdio entry that writes `marker` as soon as it starts, then runs the basic fixture server. */
function markingServer(marker: string): { command: string; args: string[] } {
  const script =
    "require('node:fs').writeFileSync(process.argv[1], 'ran'); import(require('node:url').pathToFileURL(process.argv[2]).href)";
  return { command: process.execPath, args: ['-e', script, marker, fixtureBinPath('basic')] };
}

/** Points the system file at one that does not exist, so the machine's own is never read. */
function noSystemFile(root: string): Record<string, string> {
  return { TOOLHOST_SYSTEM_SETTINGS_PATH: join(root, 'no-system-settings.json') };
}

function statuses(host: McpToolHost): string[][] {
  return host.servers.status().servers.map((server) => [server.name, server.status, server.errorCode ?? '']);
}

describe('McpToolHost and the system settings files', () => {
  it('reads the system file named by TOOLHOST_SYSTEM_SETTINGS_PATH by default: an excluded server never starts', async () => {
    const root = await tempDir();
    const home = join(root, 'home');
    const system = join(root, 'admin', 'settings.json');
    const markers = { guarded: join(root, 'guarded.ran'), free: join(root, 'free.ran') };
    await put(
      join(home, '.toolhost', 'settings.json'),
      JSON.stringify({ mcpServers: { guarded: markingServer(markers.guarded), free: markingServer(markers.free) } }),
    );
    await put(system, JSON.stringify({ mcp: { excluded: ['guarded'] } }));
    const host = await McpToolHost.create({ homeDir: home, env: { ...process.env, TOOLHOST_SYSTEM_SETTINGS_PATH: system } });
    try {
      await host.discover();
      expect(statuses(host)).toEqual([
        ['guarded', 'BLOCKED', 'EXCLUDED'],
        ['free', 'CONNECTED', ''],
      ]);
      expect(existsSync(markers.free)).toBe(true);
      expect(existsSync(markers.guarded)).toBe(false);
    } finally {
      await host.close();
    }
  });

  it("reads Gemini CLI's system and system-defaults files for appDir .gemini", async () => {
    const root = await tempDir();
    const home = join(root, 'home');
    const system = join(root, 'gemini-admin', 'settings.json');
    const marker = join(root, 'defaults-excluded.ran');
    await put(join(home, '.gemini', 'settings.json'), JSON.stringify({ mcpServers: { fromUser: markingServer(marker) } }));
    // system-defaults.json next to the system file, as Gemini CLI finds it.
    await put(join(dirname(system), 'system-defaults.json'), JSON.stringify({ mcp: { excluded: ['fromUser'] } }));
    await put(system, JSON.stringify({ mcpServers: { fromSystem: { httpUrl: 'http://127.0.0.1:9/mcp' } } }));
    const host = await McpToolHost.create({
      appDir: '.gemini',
      homeDir: home,
      // The toolhost variable is not Gemini CLI's: it is not used for .gemini.
      env: { ...process.env, GEMINI_CLI_SYSTEM_SETTINGS_PATH: system, TOOLHOST_SYSTEM_SETTINGS_PATH: join(root, 'nothing.json') },
    });
    try {
      expect(host.servers.status().servers.map((server) => [server.name, server.status, server.errorCode ?? ''])).toEqual([
        ['fromUser', 'BLOCKED', 'EXCLUDED'],
        ['fromSystem', expect.any(String), expect.anything()],
      ]);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await host.close();
    }
  });

  it('reads no system file with systemSettingsPath: false', async () => {
    const root = await tempDir();
    const home = join(root, 'home');
    const system = join(root, 'admin', 'settings.json');
    await put(join(home, '.toolhost', 'settings.json'), JSON.stringify({ mcpServers: { s: { command: 'x' } } }));
    await put(system, JSON.stringify({ mcp: { excluded: ['s'] } }));
    const host = await McpToolHost.create({
      homeDir: home,
      systemSettingsPath: false,
      env: { ...process.env, TOOLHOST_SYSTEM_SETTINGS_PATH: system },
    });
    try {
      expect(host.servers.status().servers[0]?.status).not.toBe('BLOCKED');
    } finally {
      await host.close();
    }
  });
});

describe('McpToolHost expanding variables', () => {
  it('starts a server whose command is "$NODE_DIR/<node>" and whose argument is "${FIXTURE_BIN}"', async () => {
    const root = await tempDir();
    const home = join(root, 'home');
    await put(
      join(home, '.toolhost', 'settings.json'),
      JSON.stringify({
        mcpServers: {
          expanded: {
            command: `$NODE_DIR/${basename(process.execPath)}`,
            args: ['${FIXTURE_BIN}'],
            oauth: { clientId: '$CLIENT_ID' },
            trust: true,
          },
        },
      }),
    );
    const host = await McpToolHost.create({
      homeDir: home,
      env: {
        ...process.env,
        ...noSystemFile(root),
        NODE_DIR: dirname(process.execPath),
        FIXTURE_BIN: fixtureBinPath('basic'),
        CLIENT_ID: 'client-7',
      },
    });
    try {
      await host.discover();
      expect(statuses(host)).toEqual([['expanded', 'CONNECTED', '']]);
      const result = await host.callTool({ name: 'echo', arguments: { text: 'hi' } });
      expect(result.parts[0]).toMatchObject({ type: 'text' });
      // Shown as written: the expanded path is not what the user wrote.
      expect(host.servers.formatStatus()).not.toContain(dirname(process.execPath));
    } finally {
      await host.close();
    }
  });

  it('takes variables from the .env file of a trusted project, and not from an untrusted one', async () => {
    const root = await tempDir();
    const home = join(root, 'home');
    const project = join(root, 'work', 'repo');
    await put(
      join(home, '.toolhost', 'settings.json'),
      JSON.stringify({ mcpServers: { fromEnvFile: { command: '${SERVER_NODE}', args: ['${SERVER_BIN}'], trust: true } } }),
    );
    await put(join(project, '.env'), `SERVER_NODE=${process.execPath}\nSERVER_BIN=${fixtureBinPath('basic')}\n`);
    const options = { homeDir: home, projectDir: project, env: { PATH: process.env['PATH'] ?? '', ...noSystemFile(root) } };

    const trusted = await McpToolHost.create({ ...options, trustProject: true });
    try {
      await trusted.discover();
      expect(statuses(trusted)).toEqual([['fromEnvFile', 'CONNECTED', '']]);
      expect(process.env['SERVER_NODE']).toBeUndefined();
    } finally {
      await trusted.close();
    }

    const untrusted = await McpToolHost.create({ ...options, trustProject: false });
    try {
      expect(statuses(untrusted)).toEqual([]);
      const warnings = untrusted.servers.status().warnings.map((warning) => [warning.code, warning.serverName]);
      expect(warnings).toContainEqual(['INVALID_VALUE', 'fromEnvFile']);
      expect(warnings).toContainEqual(['UNSET_ENV_VAR', 'fromEnvFile']);
    } finally {
      await untrusted.close();
    }
  });
});

describe('McpToolHost and mcp.serverCommand', () => {
  it('starts the server "mcp" from the command line in mcp.serverCommand', async () => {
    const root = await tempDir();
    const home = join(root, 'home');
    await put(join(home, '.toolhost', 'settings.json'), JSON.stringify({ mcp: { serverCommand: `"$NODE" '${fixtureBinPath('basic')}'` } }));
    const host = await McpToolHost.create({ homeDir: home, env: { ...process.env, ...noSystemFile(root), NODE: process.execPath } });
    try {
      await host.discover();
      expect(statuses(host)).toEqual([['mcp', 'CONNECTED', '']]);
      expect(host.servers.listTools().map((tool) => tool.name)).toContain('echo');
    } finally {
      await host.close();
    }
  });

  it('takes mcp.serverCommand from settings given directly', async () => {
    const host = await McpToolHost.create({
      settings: { mcp: { serverCommand: `${JSON.stringify(process.execPath)} ${JSON.stringify(fixtureBinPath('basic'))}` } },
    });
    try {
      await host.discover();
      expect(statuses(host)).toEqual([['mcp', 'CONNECTED', '']]);
    } finally {
      await host.close();
    }
  });
});
