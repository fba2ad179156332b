// Runs the built example as a user would: without a key, and with a key against a fake OpenAI Responses API on loopback.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const PNG_SIGNATURE = '89504e470d0a1a0a';

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env['OPENAI_API_KEY'];
  delete env['OPENAI_BASE_URL'];
  return { ...env, ...extra };
}

function startExample(env: NodeJS.ProcessEnv, cwd: string) {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run "pnpm --filter @toolhost-examples/openai-chat build" first`);
  const child = spawn(process.execPath, [entry], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let read = 0;
  const waiters: (() => void)[] = [];
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    wakeAll();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.on('exit', wakeAll);
  /** Wait until `text` appears after what was already consumed, then consume up to it. */
  async function waitFor(text: string): Promise<void> {
    for (;;) {
      const at = output.indexOf(text, read);
      if (at >= 0) {
        read = at + text.length;
        return;
      }
      if (child.exitCode !== null) throw new Error(`example exited before printing "${text}":\n${output}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }
  return { child, waitFor, send: (line: string) => child.stdin.write(`${line}\n`), output: () => output };
}

describe('examples/openai-chat', () => {
  it('says it needs OPENAI_API_KEY and exits 0 without one', async () => {
    const example = startExample(cleanEnv({}), process.cwd());
    const [code] = await once(example.child, 'exit');
    expect(code).toBe(0);
    expect(example.output()).toContain('openai-chat needs OPENAI_API_KEY');
  });

  describe('with a key, against a fake OpenAI Responses API', () => {
    let folder: string;
    let api: Server;
    const bodies: { input: Record<string, unknown>[] }[] = [];

    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'openai-chat-'));
      await mkdir(join(folder, '.toolhost'));
      const settings = { mcpServers: { fixture: { command: process.execPath, args: [fixtureBinPath('basic')] } } };
      await writeFile(join(folder, '.toolhost', 'settings.json'), JSON.stringify(settings));
      api = createServer((request, response) => {
        let raw = '';
        request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        request.on('end', () => {
          const body = JSON.parse(raw) as (typeof bodies)[number];
          bodies.push(body);
          const last = body.input.at(-1);
          const message = (text: string) => [
            { type: 'message', id: `msg_${bodies.length}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] },
          ];
          const output =
            last?.['type'] === 'function_call_output'
              ? message('I see a one-pixel image.')
              : String(last?.['content']).includes('poem')
                ? message('A reverent poem.')
                : [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'mixed-content', arguments: '{}', status: 'completed' }];
          response.setHeader('content-type', 'application/json');
          response.end(JSON.stringify({ id: `resp_${bodies.length}`, object: 'response', model: 'gpt-test', status: 'completed', output }));
        });
      });
      api.listen(0, '127.0.0.1');
      await once(api, 'listening');
    });

    afterAll(async () => {
      api?.close();
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    it('confirms a tool, sends its image to the model, shows /mcp and runs a prompt as a slash command', async () => {
      const port = (api.address() as AddressInfo).port;
      const example = startExample(
        cleanEnv({
          OPENAI_API_KEY: 'test-key',
          OPENAI_MODEL: 'gpt-test',
          OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`,
          HOME: folder,
          USERPROFILE: folder,
        }),
        folder,
      );
      await example.waitFor('1/1 MCP server(s) connected');
      await example.waitFor('> ');
      example.send('Show me everything.');
      await example.waitFor('"mixed-content" from MCP server "fixture"');
      await example.waitFor('2) Always allow this tool');
      await example.waitFor('choice [');
      example.send('2');
      await example.waitFor('✓ fixture › mixed-content');
      await example.waitFor('I see a one-pixel image.');
      await example.waitFor('> ');
      example.send('/mcp');
      await example.waitFor('Discovery State: COMPLETED');
      await example.waitFor('> ');
      example.send('/poem-writer "Gemini CLI" reverent');
      await example.waitFor('A reverent poem.');
      await example.waitFor('> ');
      example.send('/quit');
      const [code] = await once(example.child, 'exit');
      expect(code).toBe(0);

      const toolOutput = bodies[1]?.input.find((item) => item['type'] === 'function_call_output');
      expect(toolOutput).toMatchObject({ call_id: 'call_1' });
      const items = toolOutput?.['output'] as Record<string, string>[];
      const image = items.find((item) => item['type'] === 'input_image')?.['image_url'] ?? '';
      expect(image.startsWith('data:image/png;base64,')).toBe(true);
      const data = image.slice('data:image/png;base64,'.length);
      expect(Buffer.from(data, 'base64').subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);
      expect(JSON.stringify(bodies[2]?.input.at(-1))).toContain('Write a reverent poem called \\"Gemini CLI\\".');
      const allowList = await readFile(join(folder, '.toolhost', 'mcp-allowlist.json'), 'utf8');
      expect(allowList).toContain('mixed-content');
    });
  });
});
