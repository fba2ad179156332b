import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const entry = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'index.js');

describe('quickstart', () => {
  it('runs offline against real MCP servers and exits 0', async () => {
    expect(existsSync(entry), 'build the example first: pnpm --filter @toolhost-examples/quickstart build').toBe(true);
    const { stdout, stderr } = await run(process.execPath, [entry], { timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
    expect(stderr).toBe('');
    // Discovery and the name conflict.
    expect(stdout).toMatch(/MCP: the model gets \d+ tools \(2 of 2 configured servers connected: "fixture", "everything"\)\./);
    expect(stdout).toContain('registered as "everything__echo"');
    // The status view.
    expect(stdout).toContain('📡 fixture (CONNECTED)');
    expect(stdout).toContain('📡 everything (CONNECTED)');
    expect(stdout).toContain('Discovery State: COMPLETED');
    // A confirmation answered by the script, then the image result.
    expect(stdout).toContain('? Confirm MCP Tool Execution: everything › get-tiny-image');
    expect(stdout).toContain('answer:    proceed_always_server (scripted)');
    // One PENDING per call, carrying the confirmation request.
    expect(stdout.match(/\[PENDING\] get-tiny-image/g)).toEqual(['[PENDING] get-tiny-image']);
    expect(stdout).toContain('[PENDING] get-tiny-image — waiting for the user');
    expect(stdout).toMatch(/\[SUCCEEDED\] get-tiny-image — .*\[Image: image\/png\]/);
    expect(stdout).toMatch(/image part for the model \(image\/png, \d+ base64 characters\)/);
    // "Always allow this server": the next tool of that server runs without a question.
    expect(stdout.match(/\? Confirm MCP Tool Execution/g)).toHaveLength(1);
    expect(stdout).toContain('[SUCCEEDED] get-sum — The sum of 2 and 3 is 5.');
    // The prompt as a slash command, both forms.
    expect(stdout.match(/→ prompt for the model: "Write a reverent poem called \\"Gemini CLI\\"\."/g)).toHaveLength(2);
    expect(stdout).toContain('All servers closed.');
  });
});
