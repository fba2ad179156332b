import type { RegisteredPrompt } from '@toolhost/discovery';
import { describe, expect, it } from 'vitest';
import { buildPromptCommands } from './prompt-commands.js';

const prompt = (serverName: string, registeredName: string, originalName = registeredName): RegisteredPrompt => ({
  serverName,
  registeredName,
  originalName,
  prompt: { name: originalName, description: `${originalName} from ${serverName}`, arguments: [{ name: 'x', required: true }] },
});

describe('buildPromptCommands', () => {
  it('keeps the registered names and marks prompts without arguments for auto-execution', () => {
    const commands = buildPromptCommands([prompt('a', 'poem-writer'), { ...prompt('a', 'hello'), prompt: { name: 'hello' } }], ['mcp']);
    expect(commands.map((c) => [c.name, c.autoExecute])).toEqual([
      ['poem-writer', false],
      ['hello', true],
    ]);
    expect(commands[0]?.arguments).toEqual([{ name: 'x', required: true }]);
  });

  it('renames a prompt that would shadow a built-in command to serverName.name', () => {
    const commands = buildPromptCommands([prompt('docs', 'mcp'), prompt('other', 'docs.mcp')], ['mcp']);
    expect(commands.map((c) => c.name)).toEqual(['docs.mcp2', 'docs.mcp']);
    expect(commands[0]?.promptName).toBe('mcp');
  });
});
