import { escapeControlText } from '@toolhost/contract';
import { HostError } from './host-error.js';
import type { PromptCommand, PromptResult } from './prompt-command.js';
import type { LoadedSkill } from './skills/loaded-skill.js';
import type { SkillCommand } from './skills/skill-commands.js';

/** A slash command, as `commands/get` lists it. */
export interface SlashCommand {
  /** Command name without the slash (`poem-writer`, `mcp`). */
  readonly name: string;
  /** What the command does. */
  readonly description: string;
  /** Arguments the command accepts. */
  readonly arguments: ReadonlyArray<{
    /** Argument name (`--name=value`). */
    readonly name: string;
    /** What the argument is for. */
    readonly description: string;
    /** Whether the command needs it. */
    readonly isRequired: boolean;
  }>;
  /** Nested commands (`/mcp desc`). */
  readonly subCommands: readonly SlashCommand[];
}

/** The output of a slash command. */
export type SlashCommandResult =
  | PromptResult
  | {
      /**
       * A skill (the MCP Skills extension) was loaded and verified: `text` is ready to send to the
       * model: the skill, then what the user typed after the command.
       */
      readonly kind: 'skill';
      /** The command that ran. */
      readonly commandName: string;
      /** The server that offers the skill. */
      readonly serverName: string;
      /** The skill's own name. */
      readonly skillName: string;
      /** The skill as loaded. */
      readonly skill: LoadedSkill;
      /** What the user typed after the command, to send after the skill (Gemini CLI's follow-up prompt); `''` when nothing. */
      readonly prompt: string;
      /** For the model: the skill's text (`skill.text`), then `prompt` after a blank line when there is one. */
      readonly text: string;
    }
  | {
      /** A built-in command or `--help` produced text for the user (not for the model). */
      readonly kind: 'text';
      /** The command that ran. */
      readonly commandName: string;
      /** The text to show. */
      readonly text: string;
    };

/** A slash command line split into its name and argument text. */
export interface ParsedSlashCommandLine {
  /** The command path: the name, then any sub-command words of a built-in. */
  readonly name: string;
  /** Everything after the name. */
  readonly args: string;
}

/**
 * Split `/name rest of line` into the command name and its argument text.
 *
 * @throws HostError `INVALID_SLASH_COMMAND` when the line does not start with `/name`.
 */
export function parseSlashCommandLine(line: string): ParsedSlashCommandLine {
  const match = /^\s*\/(\S+)(?:\s+([\s\S]*))?$/.exec(line);
  if (!match?.[1]) {
    throw new HostError({
      code: 'INVALID_SLASH_COMMAND',
      message: `"${line.trim()}" is not a slash command: it must start with "/" followed by a command name, such as "/poem-writer".`,
    });
  }
  return { name: match[1], args: (match[2] ?? '').trim() };
}

/** Turn a skill into the `commands/get` shape: one optional argument, the text to send after it. */
export function skillToSlashCommand(skill: SkillCommand): SlashCommand {
  return {
    name: skill.name,
    description: skill.description || `MCP skill ${skill.skillName} from ${skill.serverName}`,
    arguments: [{ name: 'prompt', description: 'What to ask the model once the skill is loaded (optional).', isRequired: false }],
    subCommands: [],
  };
}

/** Turn a prompt into the `commands/get` shape. */
export function promptToSlashCommand(prompt: PromptCommand): SlashCommand {
  return {
    name: prompt.name,
    description: prompt.description || prompt.title || `MCP prompt ${prompt.promptName} from ${prompt.serverName}`,
    arguments: prompt.arguments.map((argument) => ({
      name: argument.name,
      description: argument.description ?? '',
      isRequired: argument.required === true,
    })),
    subCommands: [],
  };
}

/**
 * The `--help` text of a prompt command: each `--argument` with its description and whether it is
 * required. What the server wrote (names, descriptions) is escaped; descriptions keep their lines.
 */
export function formatPromptHelp(prompt: PromptCommand): string {
  const safe = (text: string): string => escapeControlText(text);
  const lines = [`/${prompt.name} (MCP prompt '${safe(prompt.promptName)}' from server '${safe(prompt.serverName)}')`];
  if (prompt.description) lines.push(escapeControlText(prompt.description, { multiline: true }));
  if (prompt.arguments.length === 0) {
    lines.push('This prompt takes no arguments.');
  } else {
    lines.push('Arguments:');
    for (const argument of prompt.arguments) {
      const description = argument.description ? ` ${safe(argument.description)}` : '';
      lines.push(`  --${safe(argument.name)}="..."${description} (required: ${argument.required === true ? 'yes' : 'no'})`);
    }
  }
  return lines.join('\n');
}
