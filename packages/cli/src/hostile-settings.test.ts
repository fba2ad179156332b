import { join } from 'node:path';
import { fixtureBinPath, startHttpFixture } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { put, putProjectSettings, runToolhost, useTrustedProject } from './testing/run-toolhost.js';

// What a settings file (a cloned project's, say) and a server write reaches the terminal through
// the BUILT `toolhost` binary only escaped and unambiguous, and a secret in it never does. Build
// first: `pnpm --filter @toolhost-internal/fixtures build` and `pnpm --filter @toolhost/cli build`.
const project = useTrustedProject('toolhost-cli-hostile-');
const settings = (servers: Record<string, unknown>) => putProjectSettings(project.place, JSON.stringify({ mcpServers: servers }));

/** What a terminal or a log must never receive raw (line feeds aside). */
const RAW =
  // eslint-disable-next-line no-control-regex -- raw control characters are what must not appear
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\u3164\ufeff]|[\u{e0000}-\u{e007f}]/u;

describe('toolhost mcp list: hostile settings and servers', () => {
  it('shows ["a b"] and ["a", "b"] differently, plain arguments as written, and names and arguments escaped', async () => {
    await settings({
      spaced: { command: 'node', args: ['server.js', 'a b'] },
      split: { command: 'node', args: ['server.js', 'a', 'b'] },
      plain: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github', '--port=8080', '$HOME/x'] },
      quoted: { command: '/opt/My Tools/run', args: ["it's", ''] },
      [`evil\u202e\u{e0041}`]: { command: 'node', args: ['x\u001b[2J', 'y\u2028z\u3164'] },
    });
    const result = await runToolhost(['mcp', 'list', '--no-connect'], project.place);
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toMatch(RAW);
    const lines = result.stdout.split('\n');
    expect(lines).toContain("• spaced: node server.js 'a b' (stdio) - Enabled [project]");
    expect(lines).toContain('• split: node server.js a b (stdio) - Enabled [project]');
    expect(lines).toContain('• plain: npx -y @modelcontextprotocol/server-github --port=8080 $HOME/x (stdio) - Enabled [project]');
    expect(lines).toContain(`• quoted: '/opt/My Tools/run' 'it'"'"'s' '' (stdio) - Enabled [project]`);
    expect(lines).toContain("• evil\\u202e\\u{e0041}: node 'x\\u001b[2J' 'y\\u2028z\\u3164' (stdio) - Enabled [project]");
  });

  it('shows the reason a server wrote with soft hyphens, fillers, BiDi marks and tag characters visibly escaped', async () => {
    const script = join(project.place.cwd, 'evil-server.cjs');
    const hostile = 'boom\u00ad\u3164\u061c\u2066\u{e0041}';
    await put(
      script,
      `process.stdin.on('data', (chunk) => { for (const line of String(chunk).split('\\n')) { if (!line.trim()) continue; const request = JSON.parse(line); if (request.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: ${JSON.stringify(hostile)} } }) + '\\n'); } });`,
    );
    await settings({
      evil: { command: process.execPath, args: [script] },
      fine: { command: process.execPath, args: [fixtureBinPath('deceptive')] },
    });
    const result = await runToolhost(['mcp', 'list'], project.place);
    expect(result.stdout + result.stderr).not.toMatch(RAW);
    expect(result.stdout).toContain('boom\\u00ad\\u3164\\u061c\\u2066\\u{e0041}');
    expect(result.stdout).toContain(
      `✓ fine: ${process.execPath} ${fixtureBinPath('deceptive')} (stdio) - Connected (MCP 2025-11-25) [project]`,
    );
  });

  it('never prints a header value, an environment value, a password or a query token; it names the header or variable instead', async () => {
    const http = await startHttpFixture({ behaviour: 'basic' });
    project.cleanups.push(() => http.close());
    await settings({
      header: { httpUrl: http.url, headers: { Authorization: 'Bearer sk-SECRET-1\nX-Injected: 1' } },
      expanded: { httpUrl: http.url, headers: { 'X-Api-Key': '${API_KEY}' } },
      password: { url: `http://user:sk-SECRET-3@127.0.0.1:9/mcp`, type: 'http' },
      environment: { command: process.execPath, args: [fixtureBinPath('basic')], env: { TOKEN: 'sk-SECRET-4\u0000' } },
      query: { httpUrl: `${http.url}?token=sk-SECRET-5` },
    });
    const result = await runToolhost(['mcp', 'list'], { ...project.place, env: { API_KEY: 'sk-SECRET-2\r\nX-Injected: 1' } });
    const output = result.stdout + result.stderr;
    expect(output).not.toContain('sk-SECRET');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'mcpServers.header.headers.Authorization: the header "Authorization" cannot be sent: its value has a line break or NUL character inside it (the value is not shown, it may be a secret).',
    );
    expect(result.stderr).toContain('mcpServers.expanded.headers.X-Api-Key: the header "X-Api-Key" cannot be sent');
    expect(result.stderr).toContain('mcpServers.password.url: the URL has a user name or password in it');
    expect(result.stderr).toContain('mcpServers.environment.env.TOKEN: the environment variable "TOKEN" has a NUL character in its value');
    expect(result.stdout).toContain(`✓ query: ${http.url}?token=*** (http) - Connected (MCP 2025-11-25) [project]`);
    // The server got the token it was given; only the display hides it.
    expect(http.requests.some((request) => request.path.includes('token=sk-SECRET-5'))).toBe(true);
  });

  it('an oauth.clientMetadataUrl that cannot be used is a settings error naming the file, line and field, never quoting it', async () => {
    await settings({
      fragment: { httpUrl: 'https://mcp.example.test/mcp', oauth: { clientMetadataUrl: 'https://app.example.test/client.json#' } },
      password: {
        httpUrl: 'https://mcp.example.test/mcp',
        oauth: { clientMetadataUrl: 'https://admin:hunter2@app.example.test/client.json' },
      },
      dots: { httpUrl: 'https://mcp.example.test/mcp', oauth: { clientMetadataUrl: 'https://app.example.test/oauth/../client.json' } },
      fine: { httpUrl: 'https://mcp.example.test/mcp', oauth: { clientMetadataUrl: 'https://app.example.test/oauth/client.json' } },
    });
    const result = await runToolhost(['mcp', 'list', '--no-connect'], project.place);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('hunter2');
    const file = join(project.place.cwd, '.toolhost', 'settings.json');
    const error = (server: string, reason: string) =>
      result.stderr
        .split('\n')
        .some(
          (line) =>
            line.startsWith(`Error [INVALID_VALUE]: ${file}:1:`) &&
            line.includes(`: mcpServers.${server}.oauth.clientMetadataUrl: oauth.clientMetadataUrl must be an https URL with a path`) &&
            line.includes(`, but ${reason}. Fix this value; the server "${server}" was not loaded.`),
        );
    expect(error('fragment', 'it has a fragment ("#")')).toBe(true);
    expect(error('password', 'it has a user name or password')).toBe(true);
    expect(error('dots', 'it has "." or ".." path segments')).toBe(true);
    expect(result.stdout).toContain('• fine: https://mcp.example.test/mcp (http) - Enabled [project]');
    expect(result.stdout).not.toContain('• fragment:');
  });

  it('refuses a malformed --header or --env of mcp add without echoing it', async () => {
    const header = await runToolhost(
      ['mcp', 'add', '-t', 'http', 'api', 'https://api.example.com/mcp', '-H', 'Authorization Bearer sk-SECRET-6'],
      project.place,
    );
    expect(header.code).not.toBe(0);
    expect(header.stderr).toContain(
      'Error [USAGE]: --header must look like "Name: value", but one has no ":" (its value is not shown here).',
    );
    const env = await runToolhost(['mcp', 'add', 'local', 'node', 'server.js', '-e', 'TOKEN sk-SECRET-7'], project.place);
    expect(env.code).not.toBe(0);
    expect(env.stderr).toContain('Error [USAGE]: --env must look like KEY=value, but one has no "=" (its value is not shown here).');
    expect(header.stdout + header.stderr + env.stdout + env.stderr).not.toContain('sk-SECRET');
  });
});
