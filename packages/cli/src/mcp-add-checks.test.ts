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

/**
 * Runs every `mcp add` at once (one after the other, a handful of Node start-ups take half a
 * minute on a busy machine), expects each to fail with its code, and the settings file to be
 * byte-identical afterwards; returns their stderr.
 */
async function expectRefused(cases: ReadonlyArray<readonly [string[], string]>): Promise<string[]> {
  await put(settingsFile(), EXISTING);
  const results = await Promise.all(cases.map(([args]) => add(...args)));
  for (const [index, [args, code]] of cases.entries()) {
    const result = results[index]!;
    const what = args.join(' ');
    expect(result.code, what).toBe(1);
    expect(result.stdout, what).toBe('');
    expect(result.stderr.trimEnd().split('\n'), what).toHaveLength(1);
    expect(result.stderr, what).toMatch(new RegExp(`^Error \\[${code}\\]: `));
  }
  expect(await readFile(settingsFile(), 'utf8')).toBe(EXISTING);
  return results.map((result) => result.stderr);
}

describe('toolhost mcp add: URLs', () => {
  it('detects an http(s) URL without -t and stores it as an http server, as Qwen Code does', async () => {
    // All at once (the settings file is locked around each edit, so none is lost).
    const [result, upper, events, fs] = await Promise.all([
      add('web', 'https://example.com/mcp'),
      add('local', 'HTTP://127.0.0.1:3000/mcp', '-H', 'X-Key: 1'),
      // An explicit transport still wins; a command stays a command.
      add('-t', 'sse', 'events', 'http://127.0.0.1:1/sse'),
      add('fs', 'npx', '-y', 'server'),
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result!.stdout.split('\n')[0]).toBe('MCP server "web" added to project settings. (http)');
    expect(upper!.code).toBe(0);
    expect(events!.stdout).toContain('(sse)');
    expect(fs!.stdout).toContain('(stdio)');
    expect(JSON.parse(await readFile(settingsFile(), 'utf8')).mcpServers).toEqual({
      web: { url: 'https://example.com/mcp', type: 'http' },
      local: { url: 'HTTP://127.0.0.1:3000/mcp', type: 'http', headers: { 'X-Key': '1' } },
      events: { url: 'http://127.0.0.1:1/sse', type: 'sse' },
      fs: { command: 'npx', args: ['-y', 'server'] },
    });
  });

  it('refuses a URL with no host, with spaces, or with another scheme, naming the field, and writes nothing', async () => {
    const [noHost, emptyHost, spaces, ftp, noScheme, ws] = await expectRefused([
      [['web', 'https://'], 'INVALID_VALUE'],
      [['web', 'https:///mcp'], 'INVALID_VALUE'],
      [['-t', 'http', 'web', 'https://exa mple.com/mcp'], 'INVALID_VALUE'],
      [['-t', 'sse', 'web', 'ftp://example.com/sse'], 'INVALID_VALUE'],
      [['-t', 'http', 'web', 'example.com/mcp'], 'INVALID_VALUE'],
      // Without -t, another scheme is not stored as a command that would fail with ENOENT later.
      [['web', 'ws://example.com/mcp'], 'USAGE'],
    ]);
    expect(noHost).toContain('mcpServers.web.url');
    expect(noHost).toContain('it has no host');
    expect(noHost).toContain('"https://example.com/mcp"');
    expect(noHost).toContain('was not changed');
    expect(emptyHost).toContain('it has no host');
    expect(spaces).toContain('spaces');
    expect(ftp).toContain('"ftp", not http or https');
    expect(noScheme).toContain('has no "https://"');
    expect(ws).toContain('looks like a URL');
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
    const [spaced, doubled, trailing, escaped] = await expectRefused([
      [['my server', 'node'], 'INVALID_SERVER_NAME'],
      [['a__b', 'node'], 'INVALID_SERVER_NAME'],
      [['tail_', 'node'], 'INVALID_SERVER_NAME'],
      [['bad\u001b[2Jname', 'node'], 'INVALID_SERVER_NAME'],
      [['', 'node'], 'INVALID_SERVER_NAME'],
      [['constructor', 'node'], 'INVALID_SERVER_NAME'],
    ]);
    expect(spaced).toContain('"my server" cannot be used as a server name');
    expect(spaced).toContain('only letters, digits, "_", "." and "-"');
    expect(spaced).toContain('"my-server"');
    expect(doubled).toContain('cannot contain "__"');
    expect(trailing).toContain('cannot end with "_"');
    expect(escaped).toContain('bad\\u001b[2Jname');
  });

  it('accepts letters, digits, "_", "." and "-"', async () => {
    // One after the other: the entries keep the order they were added in.
    for (const name of ['github', 'my-server_2', 'api.example.com', '_private']) expect((await add(name, 'node')).code).toBe(0);
    expect(Object.keys(JSON.parse(await readFile(settingsFile(), 'utf8')).mcpServers)).toEqual([
      'github',
      'my-server_2',
      'api.example.com',
      '_private',
    ]);
  });
});
