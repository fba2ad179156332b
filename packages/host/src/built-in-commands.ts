import { escapeControlText } from '@toolhost/contract';
import { formatStatus } from './format-status.js';
import { HostError } from './host-error.js';
import type { SettingsReloadResult } from './settings-reload-result.js';
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
      {
        name: 'refresh',
        description:
          'Discover the servers (or one) again: list their tools, prompts and resources once more, reconnecting servers that are down; --restart restarts them.',
        arguments: [
          { name: 'server', description: 'Only refresh this server', isRequired: false },
          { name: 'restart', description: 'Restart the servers instead of listing again (--restart)', isRequired: false },
        ],
        subCommands: [],
      },
      {
        name: 'reload',
        description: 'Read the settings files again: connect added servers, disconnect removed ones, reconnect changed ones.',
        arguments: [],
        subCommands: [],
      },
      {
        name: 'enable',
        description: 'Enable a disabled MCP server and connect it; --session enables it for this session only.',
        arguments: [
          { name: 'server', description: 'The server to enable', isRequired: true },
          { name: 'session', description: 'Only for this session, nothing saved (--session)', isRequired: false },
        ],
        subCommands: [],
      },
      {
        name: 'disable',
        description: 'Disable an MCP server and disconnect it; --session disables it for this session only.',
        arguments: [
          { name: 'server', description: 'The server to disable', isRequired: true },
          { name: 'session', description: 'Only for this session, nothing saved (--session)', isRequired: false },
        ],
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
  /** Discover servers again (`/mcp refresh`). */
  readonly refresh: (params: { readonly serverName?: string; readonly restart: boolean }) => Promise<HostStatus>;
  /** Read the settings files again (`/mcp reload`). */
  readonly reload: () => Promise<SettingsReloadResult>;
  /** Enable or disable a server (`/mcp enable`, `/mcp disable`); resolves with its status. */
  readonly setEnabled: (params: {
    readonly serverName: string;
    readonly enabled: boolean;
    readonly session: boolean;
  }) => Promise<{ readonly name: string; readonly status: string }>;
}

/** A server name, warning or argument in a command's text: control, BiDi, zero-width and tag characters escaped. */
const safe = (text: string): string => escapeControlText(text);

function usage(context: BuiltInCommandContext, text?: string): HostError {
  return new HostError({
    code: 'INVALID_SLASH_COMMAND',
    commandName: context.name,
    message:
      text ??
      `Usage: /mcp [list|desc|schema] [server], /mcp auth [server], /mcp refresh [server] [--restart], /mcp reload, /mcp enable <server> [--session] or /mcp disable <server> [--session]; got "/mcp ${safe(context.args)}".`,
  });
}

function joinNames(names: readonly string[]): string {
  return names.map((name) => `"${safe(name)}"`).join(', ');
}

/** One line saying what a reload changed. */
function describeReload(result: SettingsReloadResult): string {
  if (!result.applied) {
    return `The MCP settings were not reloaded; the servers keep running as configured before:\n${result.warnings
      .filter((warning) => warning.filePath !== undefined || warning.code === 'SETTINGS_LOAD_FAILED')
      .map((warning) => `  - ${safe(warning.message)}`)
      .join('\n')}`;
  }
  const parts = [
    result.added.length > 0 ? `added ${joinNames(result.added)}` : '',
    result.removed.length > 0 ? `removed ${joinNames(result.removed)}` : '',
    result.restarted.length > 0 ? `reconnected ${joinNames(result.restarted)}` : '',
    result.updated.length > 0 ? `updated ${joinNames(result.updated)}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Reloaded the MCP settings: ${parts.join('; ')}.` : 'Reloaded the MCP settings: nothing changed.';
}

/** `/mcp enable|disable <server> [--session]`, with Gemini CLI's messages. */
async function runEnablement(context: BuiltInCommandContext, words: readonly string[]): Promise<SlashCommandResult> {
  const action = words[0] as 'enable' | 'disable';
  const rest = words.slice(1);
  const session = rest.includes('--session');
  const names = rest.filter((word) => word !== '--session');
  if (names.length !== 1 || names[0]?.startsWith('--')) {
    throw usage(context, `Server name required. Usage: /mcp ${action} <server-name> [--session]`);
  }
  const server = await context.setEnabled({ serverName: names[0] ?? '', enabled: action === 'enable', session });
  return {
    kind: 'text',
    commandName: context.name,
    text: `MCP server '${safe(server.name)}' ${action}d${session ? ' for this session' : ''}. It is now ${server.status.toUpperCase()}.`,
  };
}

/**
 * Run a built-in command: `/mcp [list|desc|schema] [server]`, `/mcp auth [server]`,
 * `/mcp refresh [server] [--restart]`, `/mcp reload`, `/mcp enable|disable <server> [--session]`.
 */
export async function runBuiltInCommand(context: BuiltInCommandContext): Promise<SlashCommandResult> {
  const words = context.args.split(/\s+/).filter(Boolean);
  const commandName = context.name;
  if (words[0] === 'enable' || words[0] === 'disable') return runEnablement(context, words);
  if (words[0] === 'reload') {
    if (words.length > 1) throw usage(context, `Usage: /mcp reload (it takes no arguments); got "/mcp ${safe(context.args)}".`);
    const result = await context.reload();
    return { kind: 'text', commandName, text: `${describeReload(result)}\n\n${formatStatus(context.status(), VIEWS.list!)}` };
  }
  if (words[0] === 'refresh') {
    const rest = words.slice(1);
    const restart = rest.includes('--restart');
    const names = rest.filter((word) => word !== '--restart');
    if (names.length > 1 || names[0]?.startsWith('--')) {
      throw usage(context, `Usage: /mcp refresh [server] [--restart]; got "/mcp ${safe(context.args)}".`);
    }
    const serverName = names[0];
    const status = await context.refresh({ ...(serverName !== undefined ? { serverName } : {}), restart });
    const what = serverName !== undefined ? `MCP server "${safe(serverName)}"` : 'the MCP servers';
    return {
      kind: 'text',
      commandName,
      text: `${restart ? 'Restarted' : 'Refreshed'} ${what}.\n\n${formatStatus(status, { ...VIEWS.list!, ...(serverName !== undefined ? { serverName } : {}) })}`,
    };
  }
  if (words[0] === 'auth') {
    if (words.length > 2) throw usage(context);
    const serverName = words[1];
    if (serverName === undefined) {
      const waiting = context.status().servers.filter((server) => server.needsAuthentication);
      const text = waiting.length
        ? `MCP servers that need authentication:\n${waiting.map((server) => `  - ${safe(server.name)}: run /mcp auth ${safe(server.name)}`).join('\n')}`
        : 'No MCP server needs authentication.';
      return { kind: 'text', commandName, text };
    }
    const status = await context.authenticate(serverName);
    const server = status.servers.find((candidate) => candidate.name === serverName);
    return {
      kind: 'text',
      commandName,
      text: `Signed in to MCP server "${safe(serverName)}"; it is now ${(server?.status ?? 'unknown').toUpperCase()}.`,
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
