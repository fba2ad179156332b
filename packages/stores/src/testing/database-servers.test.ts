// The test set-up fails, naming the Debian package to install, when a database server is missing
// (it never skips the database tests silently).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TestProject } from 'vitest/node';
import setup from './database-servers.js';

const saved = { PATH: process.env['PATH'], TOOLHOST_REDIS_SERVER: process.env['TOOLHOST_REDIS_SERVER'] };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('the database set-up of the tests', () => {
  it('fails naming the Debian package when redis-server is not installed', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'toolhost-no-bin-'));
    try {
      process.env['PATH'] = empty;
      delete process.env['TOOLHOST_REDIS_SERVER'];
      const provided: string[] = [];
      const project = { provide: (key: string) => void provided.push(key) } as unknown as TestProject;
      await expect(setup(project)).rejects.toThrow('Install the Debian package: apt-get install redis-server');
      expect(provided).toEqual([]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
