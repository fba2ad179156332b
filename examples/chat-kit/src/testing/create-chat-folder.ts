import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';

/**
 * A new temporary folder (use it as home and working directory) whose `.toolhost/settings.json`
 * names one MCP server, `fixture`: the basic fixture over stdio. Remove it after the test.
 */
export async function createChatFolder(prefix: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), prefix));
  await mkdir(join(folder, '.toolhost'));
  const settings = { mcpServers: { fixture: { command: process.execPath, args: [fixtureBinPath('basic')] } } };
  await writeFile(join(folder, '.toolhost', 'settings.json'), JSON.stringify(settings));
  return folder;
}
