import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { describe, expect, it } from 'vitest';
import { putProjectSettings, runToolhost, useTrustedProject } from './testing/run-toolhost.js';

// `toolhost --debug`: what stdio servers write to stderr while `mcp list` connects to them,
// escaped and prefixed with the server name (the built binary, real fixture servers).
// Build first: `pnpm --filter @toolhost-internal/fixtures build` and `pnpm --filter @toolhost/cli build`.
const project = useTrustedProject('toolhost-cli-debug-');

async function settings(): Promise<void> {
  await putProjectSettings(
    project.place,
    JSON.stringify({
      mcpServers: {
        noisy: { command: process.execPath, args: [fixtureBinPath('stderr'), '--stderr-lines=3'] },
        // Not an MCP server: it writes a line full of terminal escapes to stderr and exits.
        broken: { command: process.execPath, args: ['-e', 'console.error("\\u001b[2J\\u001b]0;pwned\\u0007boom"); process.exit(3)'] },
      },
    }),
  );
}

describe('toolhost --debug', () => {
  it('prints the stderr lines of stdio servers, escaped and prefixed with the server name', async () => {
    await settings();
    // Side by side: the option before the command, and the option of the command.
    const [result, option] = await Promise.all([
      runToolhost(['--debug', 'mcp', 'list'], project.place),
      runToolhost(['mcp', 'list', '--debug'], project.place),
    ]);
    expect(result.code).toBe(0);
    const lines = result.stderr.split('\n');
    for (let i = 1; i <= 3; i++) expect(lines).toContain(`[DEBUG] [MCP STDERR (noisy)]: stderr line ${i} of 3`);
    expect(lines).toContain('[DEBUG] [MCP STDERR (broken)]: \\u001b[2J\\u001b]0;pwned\\u0007boom');
    expect(result.stderr).not.toContain('\u001b');
    expect(result.stdout).toContain('✓ noisy:');
    expect(result.stdout).toContain('✗ broken:');
    // The option of the command does the same.
    expect(option.stderr).toContain('[DEBUG] [MCP STDERR (noisy)]: stderr line 1 of 3');
  });

  it('prints nothing of the servers without --debug', async () => {
    await settings();
    const result = await runToolhost(['mcp', 'list'], project.place);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('✓ noisy:');
  });

  it('leaves a --debug after the command of mcp add to the server', async () => {
    const result = await runToolhost(['--debug', 'mcp', 'add', 'py', 'python', 'server.py', '--debug'], project.place);
    expect(result.code).toBe(0);
    const written = await runToolhost(['mcp', 'list', '--no-connect'], project.place);
    expect(written.stdout).toContain('py: python server.py --debug (stdio)');
  });
});
