import { Option, type Command } from 'commander';
import { escapeControlText } from '@toolhost/contract';
import { TRANSPORT_TYPES, type McpTransportType } from '@toolhost/config';
import { addServer } from '@toolhost/config/edit';
import { getFolderTrust } from '@toolhost/config/trust';
import { buildServerEntry } from '../build-server-entry.js';
import { CliError } from '../cli-error.js';
import { trustCommand } from '../cli-io.js';
import type { CommandContext } from './command-context.js';

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/**
 * The transport of `mcp add` without `-t`: `http` for an `http://` or `https://` URL, as in Qwen
 * Code; `stdio` otherwise. Another `scheme://` is refused, since it would be stored as a command
 * that fails to start.
 */
function detectTransport(commandOrUrl: string): McpTransportType {
  if (/^https?:\/\//i.test(commandOrUrl)) return 'http';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(commandOrUrl)?.[1];
  if (scheme !== undefined) {
    throw new CliError({
      code: 'USAGE',
      message: `"${escapeControlText(commandOrUrl, { maxLength: 200 })}" looks like a URL, but MCP servers are reached over http:// or https:// only. Give an http(s) URL, or a command to start (with --transport stdio).`,
    });
  }
  return 'stdio';
}

/** Registers `mcp add [options] <name> <commandOrUrl> [args...]`. */
export function registerMcpAdd(mcp: Command, context: CommandContext): void {
  mcp
    .command('add')
    .description('Add a server to the user or project settings (or update it)')
    .argument('<name>', 'name of the server')
    .argument('[commandOrUrl]', 'command to start (stdio) or URL (sse, http); may also follow --')
    .argument('[args...]', 'arguments of the command; put them after -- when they start with -')
    .addOption(new Option('-s, --scope <scope>', 'configuration scope').choices(['user', 'project']).default('project'))
    .addOption(
      new Option('-t, --transport <transport>', 'transport type (default: "http" for an http(s):// URL, else "stdio")').choices(
        TRANSPORT_TYPES,
      ),
    )
    .addOption(new Option('--type <transport>', 'alias of --transport').choices(TRANSPORT_TYPES).hideHelp())
    .option('-e, --env <KEY=value>', 'environment variable of a stdio server (repeatable)', collect)
    .option('-H, --header <"Name: value">', 'HTTP header of an sse or http server (repeatable)', collect)
    .option('--timeout <ms>', 'request timeout in milliseconds')
    .option('--trust', 'trust the server: skip every tool call confirmation')
    .option('--description <text>', 'description of the server')
    .option('--include-tools <tools>', 'comma-separated tools to include', collect)
    .option('--exclude-tools <tools>', 'comma-separated tools to exclude', collect)
    .allowUnknownOption()
    .action(async (name: string, given: string | undefined, args: string[], options: Record<string, unknown>) => {
      // `mcp add name -- cmd args` (Claude Code's form) names the command after the separator.
      const [commandOrUrl, ...serverArgs] =
        given === undefined ? context.serverArgsAfterSeparator : [given, ...args, ...context.serverArgsAfterSeparator];
      if (commandOrUrl === undefined) throw new CliError({ code: 'USAGE', message: "missing required argument 'commandOrUrl'" });
      const config = buildServerEntry({
        transport: (options['transport'] ?? options['type'] ?? detectTransport(commandOrUrl)) as McpTransportType,
        commandOrUrl,
        args: serverArgs,
        env: (options['env'] as string[] | undefined) ?? [],
        headers: (options['header'] as string[] | undefined) ?? [],
        timeout: options['timeout'] as string | undefined,
        trust: options['trust'] as boolean | undefined,
        description: options['description'] as string | undefined,
        includeTools: (options['includeTools'] as string[] | undefined) ?? [],
        excludeTools: (options['excludeTools'] as string[] | undefined) ?? [],
      });
      const scope = options['scope'] as 'user' | 'project';
      const result = await addServer({ ...context.location(), scope, name, config });
      const transport = config.type ?? 'stdio';
      if (result.replaced) {
        context.io.stdout(`MCP server "${name}" is already configured within ${scope} settings.\n`);
        context.io.stdout(`MCP server "${name}" updated in ${scope} settings.\n`);
      } else {
        context.io.stdout(`MCP server "${name}" added to ${scope} settings. (${transport})\n`);
      }
      if (config.includeTools?.length === 0)
        context.io.stdout(`Note: --include-tools is empty, so no tool of "${name}" is registered; list the tools to include.\n`);
      if (scope === 'project') {
        const location = context.location();
        const trust = await getFolderTrust({ ...location, folder: context.io.cwd });
        if (!trust.trusted)
          context.io.stdout(
            `Note: this folder is not trusted, so "${name}" starts only once it is: run "${trustCommand(location.appDir)}" in ${trust.folder}.\n`,
          );
        else if (trust.overriddenBy === undefined && (trust.format === 'toolhost' || trust.pinnedServers !== undefined))
          // Trust is pinned to the project servers it saw: an added or changed one waits for the user.
          context.io.stdout(
            `Note: the folder's trust covers the servers it had when it was trusted, so "${name}" starts once you run "${trustCommand(location.appDir)}" in ${trust.folder} again.\n`,
          );
      }
    });
}
