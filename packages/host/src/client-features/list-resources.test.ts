import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { listAllResources } from './list-resources.js';

const require = createRequire(import.meta.url);
const PAGINATED = require.resolve('@toolhost-internal/fixtures').replace(/index\.c?js$/, 'bin/paginated.js');

async function connectPaginated(args: string[]): Promise<Client> {
  const client = new Client({ name: 'toolhost-test', version: '0.0.0' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [PAGINATED, ...args], stderr: 'ignore' }));
  return client;
}

describe('listAllResources against the paginated fixture', () => {
  it('reads every page', async () => {
    const client = await connectPaginated(['--pages=3', '--page-size=2']);
    try {
      const resources = await listAllResources(client, { serverName: 'paginated' });
      expect(resources).toHaveLength(6);
      expect(new Set(resources.map((resource) => resource.uri)).size).toBe(6);
    } finally {
      await client.close();
    }
  });

  it('stops with RESOURCE_LIST_FAILED on a cursor that never advances', async () => {
    const client = await connectPaginated(['--stuck-cursor=true']);
    try {
      await expect(listAllResources(client, { serverName: 'paginated' })).rejects.toMatchObject({
        code: 'RESOURCE_LIST_FAILED',
        serverName: 'paginated',
        method: 'resources/list',
      });
    } finally {
      await client.close();
    }
  });
});
