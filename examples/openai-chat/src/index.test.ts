// Runs the built example as a user would: without a key, and with a key against a fake OpenAI Responses API on loopback.
import { once } from 'node:events';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createChatFolder,
  exampleEnv,
  playChatSession,
  startExample as start,
  startJsonApi,
  type JsonApi,
} from '@toolhost-examples/chat-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const PNG_SIGNATURE = '89504e470d0a1a0a';

const cleanEnv = (extra: Record<string, string>) => exampleEnv(extra, ['OPENAI_API_KEY', 'OPENAI_BASE_URL']);
const startExample = (env: NodeJS.ProcessEnv, cwd: string) => start({ entry, packageName: '@toolhost-examples/openai-chat', env, cwd });

describe('examples/openai-chat', () => {
  it('says it needs OPENAI_API_KEY and exits 0 without one', async () => {
    const example = startExample(cleanEnv({}), process.cwd());
    const [code] = await once(example.child, 'exit');
    expect(code).toBe(0);
    expect(example.output()).toContain('openai-chat needs OPENAI_API_KEY');
  });

  describe('with a key, against a fake OpenAI Responses API', () => {
    let folder: string;
    let api: JsonApi;
    const bodies: { input: Record<string, unknown>[] }[] = [];

    beforeAll(async () => {
      folder = await createChatFolder('openai-chat-');
      api = await startJsonApi((raw) => {
        const body = raw as (typeof bodies)[number];
        bodies.push(body);
        const last = body.input.at(-1);
        const message = (text: string) => [
          {
            type: 'message',
            id: `msg_${bodies.length}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text, annotations: [] }],
          },
        ];
        const output =
          last?.['type'] === 'function_call_output'
            ? message('I see a one-pixel image.')
            : String(last?.['content']).includes('poem')
              ? message('A reverent poem.')
              : [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'mixed-content', arguments: '{}', status: 'completed' }];
        return { id: `resp_${bodies.length}`, object: 'response', model: 'gpt-test', status: 'completed', output };
      });
    });

    afterAll(async () => {
      await api?.close();
      if (folder) await rm(folder, { recursive: true, force: true });
    });

    it('confirms a tool, sends its image to the model, shows /mcp and runs a prompt as a slash command', async () => {
      const port = api.port;
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
      const code = await playChatSession(example);
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
