import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { put, runToolhost, useTrustedProject } from './testing/run-toolhost.js';

// `toolhost mcp add` with a URL and without -t, and what it refuses before writing anything
// (the built binary, in a temporary home). Build first: `pnpm --filter @toolhost/cli build`.
const project = useTrustedProject('toolhost-cli-add-');
const settingsFile = () => join(project.place.cwd, '.toolhost', 'settings.json');
const add = (...args: string[]) => runToolhost(['mcp', 'add', ...args], project.place);

const EXISTING = `// Team settings: keep this comment.
{
  "mcpServers": {
    "kept": { "command": "node", "args": ["server.js"] }
  }
}
`;

/** Runs `mcp add`, expects it to fail with `code`, and the settings file to be byte-identical. */
async function expectRefused(args: string[], code: string): Promise<string> {
  await put(settingsFile(), EXISTING);
  const result = await add(...args);
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(new RegExp(`^Error \\[${code}\\]: `));
  expect(await readFile(settingsFile(), 'utf8')).toBe(EXISTING);
  return result.stderr;
}

describe('toolhost mcp add: URLs', () => {
  it('detects an http(s) URL without -t and stores it as an http server, as Qwen Code does', async () => {
    const result = await add('web', 'https://example.com/mcp');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.split('\n')[0]).toBe('MCP server "web" added to project settings. (http)');
    const upper = await add('local', 'HTTP://127.0.0.1:3000/mcp', '-H', 'X-Key: 1');
    expect(upper.code).toBe(0);
    expect(JSON.parse(await readFile(settingsFile(), 'utf8')).mcpServers).toEqual({
      web: { url: 'https://example.com/mcp', type: 'http' },
      local: { url: 'HTTP://127.0.0.1:3000/mcp', type: 'http', headers: { 'X-Key': '1' } },
    });
    // An explicit transport still wins; a command stays a command.
    expect((await add('-t', 'sse', 'events', 'http://127.0.0.1:1/sse')).stdout).toContain('(sse)');
    expect((await add('fs', 'npx', '-y', 'server')).stdout).toContain('(stdio)');
  });

  it('refuses a URL with no host, with spaces, or with another scheme, naming the field, and writes nothing', async () => {
    const noHost = await expectRefused(['web', 'https://'], 'INVALID_VALUE');
    expect(noHost).toContain('mcpServers.web.url');
    expect(noHost).toContain('it has no host');
    expect(noHost).toContain('"https://example.com/mcp"');
    expect(noHost).toContain('was not changed');
    expect(await expectRefused(['web', 'https:///mcp'], 'INVALID_VALUE')).toContain('it has no host');
    expect(await expectRefused(['-t', 'http', 'web', 'https://exa mple.com/mcp'], 'INVALID_VALUE')).toContain('spaces');
    expect(await expectRefused(['-t', 'sse', 'web', 'ftp://example.com/sse'], 'INVALID_VALUE')).toContain('"ftp", not http or https');
    expect(await expectRefused(['-t', 'http', 'web', 'example.com/mcp'], 'INVALID_VALUE')).toContain('has no "https://"');
    // Without -t, another scheme is not stored as a command that would fail with ENOENT later.
    expect(await expectRefused(['web', 'ws://example.com/mcp'], 'USAGE')).toContain('looks like a URL');
  });

  it('accepts a URL made of $VAR references, which is only known once the settings are loaded', async () => {
    expect((await add('-t', 'http', 'env', '${MCP_URL}')).code).toBe(0);
    expect((await add('host', 'https://${MCP_HOST}/mcp')).code).toBe(0);
    expect(JSON.parse(await readFile(settingsFile(), 'utf8')).mcpServers).toEqual({
      env: { url: '${MCP_URL}', type: 'http' },
      host: { url: 'https://${MCP_HOST}/mcp', type: 'http' },
    });
  });
});

describe('toolhost mcp add: server names', () => {
  it('refuses a name the tool naming cannot carry, says why and suggests one, and writes nothing', async () => {
    const spaced = await expectRefused(['my server', 'node'], 'INVALID_SERVER_NAME');
    expect(spaced).toContain('"my server" cannot be used as a server name');
    expect(spaced).toContain('only letters, digits, "_", "." and "-"');
    expect(spaced).toContain('"my-server"');
    expect(await expectRefused(['a__b', 'node'], 'INVALID_SERVER_NAME')).toContain('cannot contain "__"');
    expect(await expectRefused(['tail_', 'node'], 'INVALID_SERVER_NAME')).toContain('cannot end with "_"');
    expect(await expectRefused(['bad\u001b[2Jname', 'node'], 'INVALID_SERVER_NAME')).toContain('bad\\u001b[2Jname');
    await expectRefused(['', 'node'], 'INVALID_SERVER_NAME');
    await expectRefused(['constructor', 'node'], 'INVALID_SERVER_NAME');
  });

  it('accepts letters, digits, "_", "." and "-"', async () => {
    for (const name of ['github', 'my-server_2', 'api.example.com', '_private']) expect((await add(name, 'node')).code).toBe(0);
    expect(Object.keys(JSON.parse(await readFile(settingsFile(), 'utf8')).mcpServers)).toEqual([
      'github',
      'my-server_2',
      'api.example.com',
      '_private',
    ]);
  });
});
