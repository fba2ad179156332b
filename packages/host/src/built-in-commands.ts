import { formatStatus } from './format-status.js';
import { HostError } from './host-error.js';
import type { HostStatus } from './host-status.js';
import type { SlashCommand, SlashCommandResult } from './slash-command.js';

const serverArgument = [{ name: 'server', description: 'Only show this server', isRequired: false }];

/** The host's own slash commands; they win over MCP prompts of the same name. */
export const BUILT_IN_COMMANDS: readonly SlashCommand[] = [
  {
    name: 'mcp',
    description: 'Show the MCP servers, their status and their tools.',
    arguments: serverArgument,
    subCommands: [
      { name: 'list', description: 'List servers and tool names.', arguments: serverArgument, subCommands: [] },
      { name: 'desc', description: 'List servers and tools with descriptions.', arguments: serverArgument, subCommands: [] },
      { name: 'schema', description: 'List tools with descriptions and input schemas.', arguments: serverArgument, subCommands: [] },
    ],
  },
];

const SUBCOMMANDS: Record<string, { descriptions: boolean; schemas: boolean }> = {
  list: { descriptions: false, schemas: false },
  ls: { descriptions: false, schemas: false },
  nodesc: { descriptions: false, schemas: false },
  nodescription: { descriptions: false, schemas: false },
  desc: { descriptions: true, schemas: false },
  description: { descriptions: true, schemas: false },
  schema: { descriptions: true, schemas: true },
};

/** Run a built-in command (`/mcp [list|desc|schema] [server]`). */
export function runBuiltInCommand(options: { name: string; args: string; status: () => HostStatus }): SlashCommandResult {
  const words = options.args.split(/\s+/).filter(Boolean);
  let mode = SUBCOMMANDS.list!;
  if (words[0] !== undefined && SUBCOMMANDS[words[0]]) {
    mode = SUBCOMMANDS[words[0]]!;
    words.shift();
  }
  if (words.length > 1) {
    throw new HostError({
      code: 'INVALID_SLASH_COMMAND',
      commandName: options.name,
      message: `Usage: /mcp [list|desc|schema] [server]; got "/mcp ${options.args}".`,
    });
  }
  const serverName = words[0];
  return {
    kind: 'text',
    commandName: options.name,
    text: formatStatus(options.status(), { ...mode, ...(serverName ? { serverName } : {}) }),
  };
}
