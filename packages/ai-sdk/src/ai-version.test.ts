// Which `ai` and `@ai-sdk/openai` the suite runs against: the workspace's, or the ones
// scripts/test-ai-sdk-7.sh installs (it sets TOOLHOST_EXPECT_AI_VERSION and
// TOOLHOST_EXPECT_AI_SDK_OPENAI_VERSION, so that a run that silently loaded the workspace's
// `ai` 6 fails here).
import { VERSION as OPENAI_VERSION } from '@ai-sdk/openai';
import { describe, expect, it } from 'vitest';
import { AI_7 } from './scripted-model.test-helper.js';

async function aiVersion(): Promise<string> {
  // Through the same resolution as `import ... from 'ai'` (vitest.config.ts), not Node's.
  const aiPackage = (await import('ai/package.json', { with: { type: 'json' } })) as { default: { version: string } };
  return aiPackage.default.version;
}

describe('the AI SDK packages under test', () => {
  it('are the versions the run expects (TOOLHOST_EXPECT_AI_VERSION, TOOLHOST_EXPECT_AI_SDK_OPENAI_VERSION), and the ai 7 detection agrees with the ai major', async () => {
    const version = await aiVersion();
    const expectedAi = process.env['TOOLHOST_EXPECT_AI_VERSION'];
    const expectedOpenAi = process.env['TOOLHOST_EXPECT_AI_SDK_OPENAI_VERSION'];
    if (expectedAi) expect(version).toBe(expectedAi);
    if (expectedOpenAi) expect(OPENAI_VERSION).toBe(expectedOpenAi);
    expect(AI_7).toBe(Number(version.split('.')[0]) >= 7);
  });
});
