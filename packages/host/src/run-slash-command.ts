import type { ConnectionClient } from '@toolhost/connection';
import { BUILT_IN_COMMANDS, runBuiltInCommand, type BuiltInCommandContext } from './built-in-commands.js';
import { HostError } from './host-error.js';
import type { HostStatus } from './host-status.js';
import { runPromptCommand } from './prompt-commands.js';
import type { PromptCommand } from './prompt-command.js';
import { formatPromptHelp, parseSlashCommandLine, type SlashCommandResult } from './slash-command.js';
import type { SkillCommand } from './skills/skill-commands.js';
import type { LoadedSkill } from './skills/loaded-skill.js';

/** What running a slash command needs from the host. */
export interface SlashCommandContext {
  /** The prompt commands. */
  readonly prompts: () => readonly PromptCommand[];
  /** The skill commands. */
  readonly skills: () => readonly SkillCommand[];
  /** Load a skill the user asked for. */
  readonly loadSkill: (command: SkillCommand) => Promise<LoadedSkill>;
  /** The connected client of a server. */
  readonly getClient: (serverName: string) => Pick<ConnectionClient, 'getPrompt'> | undefined;
  /** Connect again a server a connection pool closed while idle (before its prompt is fetched). */
  readonly resume?: (serverName: string) => Promise<void>;
  /** The current status (for `/mcp`). */
  readonly status: () => HostStatus;
  /** Sign in to a server (for `/mcp auth <server>`). */
  readonly authenticate: (serverName: string) => Promise<HostStatus>;
  /** Discover servers again (`/mcp refresh`). */
  readonly refresh: BuiltInCommandContext['refresh'];
  /** Read the settings files again (`/mcp reload`). */
  readonly reload: BuiltInCommandContext['reload'];
  /** Enable or disable a server (`/mcp enable`, `/mcp disable`). */
  readonly setEnabled: BuiltInCommandContext['setEnabled'];
  /** Aborts the command. */
  readonly signal?: AbortSignal;
}

/** Dispatch a slash command line to a built-in command, an MCP prompt or an MCP skill. */
export async function runSlashCommand(line: string, context: SlashCommandContext): Promise<SlashCommandResult> {
  const { name, args } = parseSlashCommandLine(line);
  if (BUILT_IN_COMMANDS.some((command) => command.name === name)) {
    return runBuiltInCommand({
      name,
      args,
      status: context.status,
      authenticate: context.authenticate,
      refresh: context.refresh,
      reload: context.reload,
      setEnabled: context.setEnabled,
    });
  }
  const prompts = context.prompts();
  const command = prompts.find((prompt) => prompt.name === name);
  const skills = command ? [] : context.skills();
  const skill = skills.find((candidate) => candidate.name === name);
  if (skill) {
    const loaded = await context.loadSkill(skill);
    return {
      kind: 'skill',
      commandName: skill.name,
      serverName: skill.serverName,
      skillName: skill.skillName,
      skill: loaded,
      prompt: args,
      text: args ? `${loaded.text}\n\n${args}` : loaded.text,
    };
  }
  if (!command) {
    const known = [...BUILT_IN_COMMANDS.map((c) => c.name), ...prompts.map((c) => c.name), ...skills.map((c) => c.name)];
    throw new HostError({
      code: 'COMMAND_NOT_FOUND',
      commandName: name,
      message: `Unknown command "/${name}". Available commands: ${known.map((c) => `/${c}`).join(', ')}.`,
    });
  }
  if (/^(--help|-h)$/.test(args)) return { kind: 'text', commandName: command.name, text: formatPromptHelp(command) };
  await context.resume?.(command.serverName);
  return runPromptCommand({
    command,
    args,
    client: context.getClient(command.serverName),
    ...(context.signal ? { signal: context.signal } : {}),
  });
}
