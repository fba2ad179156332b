import type { McpServerManager } from '@toolhost/discovery';
import { BUILT_IN_COMMANDS } from './built-in-commands.js';
import type { PromptCommand } from './prompt-command.js';
import { buildPromptCommands } from './prompt-commands.js';
import { buildSkillCommands, type SkillCommand } from './skills/skill-commands.js';

/** The names of the built-in commands, which MCP prompts and skills never take. */
const BUILT_IN_NAMES: readonly string[] = BUILT_IN_COMMANDS.map((command) => command.name);

/** The MCP prompts the discovery layer knows, as slash commands, in registry order. */
export function promptCommands(manager: Pick<McpServerManager, 'prompts'>): PromptCommand[] {
  return buildPromptCommands(manager.prompts.list(), BUILT_IN_NAMES);
}

/**
 * The skills as slash commands, in registry order: unique names that never take a built-in's or
 * a prompt command's (see `buildSkillCommands`).
 */
export function skillCommands(
  manager: Pick<McpServerManager, 'prompts' | 'skills'>,
  prompts: readonly PromptCommand[] = promptCommands(manager),
): SkillCommand[] {
  return buildSkillCommands(manager.skills.list(), [...BUILT_IN_NAMES, ...prompts.map((prompt) => prompt.name)]);
}
