// Runs the built example as a user would: without a key, and with a key against a fake Gemini API on loopback.
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

const cleanEnv = (extra: Record<string, string>) => exampleEnv(extra, ['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
const startExample = (env: NodeJS.ProcessEnv, cwd: string) => start({ entry, packageName: '@toolhost-examples/gemini-chat', env, cwd });

describe('examples/gemini-chat', () => {
  it('says it needs GEMINI_API_KEY and exits 0 without one', async () => {
    const example = startExample(cleanEnv({}), process.cwd());
    const [code] = await once(example.child, 'exit');
    expect(code).toBe(0);
    expect(example.output()).toContain('gemini-chat needs GEMINI_API_KEY');
  });

  describe('with a key, against a fake Gemini API', () => {
    let folder: string;
    let api: JsonApi;
    const bodies: { contents: { role: string; parts: Record<string, unknown>[] }[] }[] = [];

    beforeAll(async () => {
      folder = await createChatFolder('gemini-chat-');
      api = await startJsonApi((raw) => {
        const body = raw as (typeof bodies)[number];
        bodies.push(body);
        const last = body.contents.at(-1)?.parts ?? [];
        const lastText = String(last[0]?.['text'] ?? '');
        const parts = last.some((part) => 'functionResponse' in part)
          ? [{ text: 'I see a one-pixel image.' }]
          : lastText.includes('poem')
            ? [{ text: 'A reverent poem.' }]
            : [{ functionCall: { name: 'mixed-content', args: {} } }];
        return { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP' }] };
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
          GEMINI_API_KEY: 'test-key',
          GEMINI_MODEL: 'gemini-test',
          GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`,
          HOME: folder,
          USERPROFILE: folder,
        }),
        folder,
      );
      const code = await playChatSession(example);
      expect(code).toBe(0);

      const toolTurn = bodies[1]?.contents.at(-1)?.parts ?? [];
      expect(toolTurn[0]?.['functionResponse']).toMatchObject({ name: 'mixed-content' });
      const image = toolTurn.find((part) => (part['inlineData'] as { mimeType?: string } | undefined)?.mimeType === 'image/png');
      const data = (image?.['inlineData'] as { data: string }).data;
      expect(Buffer.from(data, 'base64').subarray(0, 8).toString('hex')).toBe(PNG_SIGNATURE);
      expect(JSON.stringify(bodies[2]?.contents.at(-1))).toContain('Write a reverent poem called \\"Gemini CLI\\".');
      const allowList = await readFile(join(folder, '.toolhost', 'mcp-allowlist.json'), 'utf8');
      expect(allowList).toContain('mixed-content');
    });
  });
});
