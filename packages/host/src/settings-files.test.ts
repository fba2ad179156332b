import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trustFolder } from '@toolhost/config';
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
    const blocked = untrusted.getStatus().servers.find((status) => status.name === 'fromProject');
    expect([blocked?.status, blocked?.errorCode]).toEqual(['blocked', 'UNTRUSTED_PROJECT']);
    await untrusted.close();
    await trustFolder({ appDir: '.myapp', homeDir: home, folder: project });
    const host = await McpToolHost.create(options);
    try {
      expect(host.configErrors.length).toBeGreaterThan(0);
      expect(host.configErrors.map((error) => error.message).join('\n')).toContain('broken');
      await host.discover();
      expect(host.getStatus().servers.map((s) => [s.name, s.status])).toEqual([
        ['fromUser', 'connected'],
        ['fromProject', 'connected'],
      ]);
      const env = await host.callTool('fromProject__env', { names: ['GREETING'] });
      expect(env.parts[0]).toEqual({ type: 'text', text: JSON.stringify({ GREETING: 'hello from env' }) });
      expect(host.formatStatus()).not.toContain('hello from env');
    } finally {
      await host.close();
    }
  });

  it('rejects an adapter written for another contract version', async () => {
    const adapter = { specificationVersion: 'v2', provider: 'future' } as never;
    await expect(McpToolHost.create({ settings: {}, adapter })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
