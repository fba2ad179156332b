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
      {
        name: 'auth',
        description: 'List servers that need authentication, or sign in to one.',
        arguments: [{ name: 'server', description: 'The server to sign in to', isRequired: false }],
        subCommands: [],
      },
    ],
  },
];

const VIEWS: Record<string, { descriptions: boolean; schemas: boolean }> = {
  list: { descriptions: false, schemas: false },
  ls: { descriptions: false, schemas: false },
  nodesc: { descriptions: false, schemas: false },
  nodescription: { descriptions: false, schemas: false },
  desc: { descriptions: true, schemas: false },
  description: { descriptions: true, schemas: false },
  schema: { descriptions: true, schemas: true },
};

/** What a built-in command may use. */
export interface BuiltInCommandContext {
  /** Command name. */
  readonly name: string;
  /** Argument text. */
  readonly args: string;
  /** The current status. */
  readonly status: () => HostStatus;
  /** Sign in to a server. */
  readonly authenticate: (serverName: string) => Promise<HostStatus>;
}

function usage(context: BuiltInCommandContext): HostError {
  return new HostError({
    code: 'INVALID_SLASH_COMMAND',
    commandName: context.name,
    message: `Usage: /mcp [list|desc|schema] [server] or /mcp auth [server]; got "/mcp ${context.args}".`,
  });
}

/** Run a built-in command: `/mcp [list|desc|schema] [server]`, `/mcp auth [server]`. */
export async function runBuiltInCommand(context: BuiltInCommandContext): Promise<SlashCommandResult> {
  const words = context.args.split(/\s+/).filter(Boolean);
  const commandName = context.name;
  if (words[0] === 'auth') {
    if (words.length > 2) throw usage(context);
    const serverName = words[1];
    if (serverName === undefined) {
      const waiting = context.status().servers.filter((server) => server.needsAuthentication);
      const text = waiting.length
        ? `MCP servers that need authentication:\n${waiting.map((server) => `  - ${server.name}: run /mcp auth ${server.name}`).join('\n')}`
        : 'No MCP server needs authentication.';
      return { kind: 'text', commandName, text };
    }
    const status = await context.authenticate(serverName);
    const server = status.servers.find((candidate) => candidate.name === serverName);
    return {
      kind: 'text',
      commandName,
      text: `Signed in to MCP server "${serverName}"; it is now ${(server?.status ?? 'unknown').toUpperCase()}.`,
    };
  }
  let view = VIEWS.list!;
  if (words[0] !== undefined && VIEWS[words[0]]) {
    view = VIEWS[words[0]]!;
    words.shift();
  }
  if (words.length > 1) throw usage(context);
  const serverName = words[0];
  return {
    kind: 'text',
    commandName,
    text: formatStatus(context.status(), { ...view, ...(serverName ? { serverName } : {}) }),
  };
}
