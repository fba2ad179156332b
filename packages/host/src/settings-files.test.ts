import { mkdtemp, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trustFolder } from '@toolhost/config/trust';
import { afterEach, describe, expect, it } from 'vitest';
import { McpToolHost } from './mcp-tool-host.js';
import { fixtureServer } from './test-support.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolhost-host-'));
  dirs.push(dir);
  return dir;
}

describe('McpToolHost reading settings files', () => {
  it('loads user and project settings from appDir, skipping a bad entry and reporting it', async () => {
    const home = await tempDir();
    const project = await tempDir();
    const server = fixtureServer('basic', { trust: true });
    await mkdir(join(home, '.myapp'), { recursive: true });
    await mkdir(join(project, '.myapp'), { recursive: true });
    await writeFile(join(home, '.myapp', 'settings.json'), JSON.stringify({ mcpServers: { fromUser: server } }));
    await writeFile(
      join(project, '.myapp', 'settings.json'),
      `{
        // comments are allowed
        "mcpServers": {
          "fromProject": ${JSON.stringify({ ...server, env: { GREETING: '$HOST_TEST_GREETING' } })},
          "broken": { "timeout": "soon" }
        }
      }`,
    );
    const options = {
      appDir: '.myapp',
      projectDir: project,
      homeDir: home,
      env: { ...process.env, HOST_TEST_GREETING: 'hello from env' },
    };
    // Until the user trusts the project folder, its servers are blocked with a stable code.
    const untrusted = await McpToolHost.create(options);
    const blocked = untrusted.servers.status().servers.find((status) => status.name === 'fromProject');
    expect([blocked?.status, blocked?.errorCode]).toEqual(['BLOCKED', 'UNTRUSTED_PROJECT']);
    await untrusted.close();
    await trustFolder({ appDir: '.myapp', homeDir: home, folder: project });
    const host = await McpToolHost.create(options);
    try {
      const { warnings } = host.servers.status();
      expect(warnings.length).toBeGreaterThan(0);
      expect(warnings.map((warning) => warning.message).join('\n')).toContain('broken');
      await host.discover();
      expect(host.servers.status().servers.map((s) => [s.name, s.status])).toEqual([
        ['fromUser', 'CONNECTED'],
        ['fromProject', 'CONNECTED'],
      ]);
      const env = await host.callTool({ name: 'fromProject__env', arguments: { names: ['GREETING'] } });
      expect(env.parts[0]).toEqual({ type: 'text', text: JSON.stringify({ GREETING: 'hello from env' }) });
      expect(host.servers.formatStatus()).not.toContain('hello from env');
    } finally {
      await host.close();
    }
  });

  it('passes trustProject and trustCommand through: true runs the project servers, the default reads the store', async () => {
    const home = await tempDir();
    const project = await tempDir();
    await mkdir(join(project, '.myapp'), { recursive: true });
    await writeFile(
      join(project, '.myapp', 'settings.json'),
      JSON.stringify({ mcpServers: { fromProject: fixtureServer('basic', { trust: true }) } }),
    );
    const base = { appDir: '.myapp', projectDir: project, homeDir: home };

    // Default ('auto'): nothing in ~/.myapp/trusted-folders.json, so the project server is blocked,
    // and the message names the host's own trust command.
    const byDefault = await McpToolHost.create({ ...base, trustCommand: '/trust' });
    try {
      await byDefault.discover();
      const blocked = byDefault.servers.status().servers.find((status) => status.name === 'fromProject');
      expect([blocked?.status, blocked?.errorCode]).toEqual(['BLOCKED', 'UNTRUSTED_PROJECT']);
      expect(blocked?.lastError).toContain('"/trust"');
      expect(byDefault.servers.listTools()).toEqual([]);
    } finally {
      await byDefault.close();
    }

    // true: the host's own decision (its trust prompt); the store is neither read nor written.
    const trusted = await McpToolHost.create({ ...base, trustProject: true });
    try {
      await trusted.discover();
      expect(trusted.servers.status().servers.map((status) => [status.name, status.status])).toEqual([['fromProject', 'CONNECTED']]);
      const echo = await trusted.callTool({ name: 'echo', arguments: { message: 'trusted' } });
      expect([echo.error?.code, echo.display]).toEqual([undefined, 'trusted']);
    } finally {
      await trusted.close();
    }
    await expect(stat(join(home, '.myapp', 'trusted-folders.json'))).rejects.toMatchObject({ code: 'ENOENT' });

    // false wins over a store that trusts the folder.
    await trustFolder({ appDir: '.myapp', homeDir: home, folder: project });
    const refused = await McpToolHost.create({ ...base, trustProject: false });
    try {
      expect(refused.servers.status().servers[0]?.errorCode).toBe('UNTRUSTED_PROJECT');
    } finally {
      await refused.close();
    }
  });

  it('never comes up silently empty: servers blocked by an untrusted project folder are a warning, an event and a status line', async () => {
    const home = await tempDir();
    const project = await tempDir();
    await mkdir(join(project, '.myapp'), { recursive: true });
    await writeFile(
      join(project, '.myapp', 'settings.json'),
      JSON.stringify({ mcpServers: { one: fixtureServer('basic'), two: fixtureServer('basic') } }),
    );
    const host = await McpToolHost.create({ appDir: '.myapp', projectDir: project, homeDir: home, trustCommand: 'myapp trust' });
    const events: string[] = [];
    host.on('warning', (warning) => events.push(`${warning.code}: ${warning.message}`));
    try {
      const status = await host.discover();
      expect(host.servers.listTools()).toEqual([]);
      const warning = status.warnings.find((entry) => entry.code === 'UNTRUSTED_PROJECT');
      expect(warning?.message).toContain('2 MCP servers "one", "two" come from the settings of the project folder');
      expect(warning?.message).toContain('run "myapp trust" in');
      expect(events).toEqual([`UNTRUSTED_PROJECT: ${warning?.message}`]);
      expect(host.servers.formatStatus()).toContain(`Warnings:\n  ⚠ ${warning?.message}`);
    } finally {
      await host.close();
    }
  });

  it('rejects an adapter written for another contract version', async () => {
    const adapter = { specificationVersion: 'v2', provider: 'future' } as never;
    await expect(McpToolHost.create({ settings: {}, adapter })).rejects.toMatchObject({ code: 'UNSUPPORTED_ADAPTER' });
  });
});
