import type { Command } from 'commander';
import { loadSettings } from '@toolhost/config';
import { collectServerStatuses, formatServerRow } from '../server-status.js';
import { createProbeConnectionCheck } from '../probe-connection-check.js';
import { formatProblem } from '../format-problem.js';
import { debugStderr, type CommandContext } from './command-context.js';

/**
 * Registers `mcp list [--no-connect]`. Every enabled server is connected once, all at the same
 * time, to show `Connected` or `Disconnected` (with the reason below the line); `--no-connect`
 * shows the configured state only. Exit code 1 when a settings file has an error (the servers
 * that loaded are still listed); a disconnected server is not a failure of the command.
 */
export function registerMcpList(mcp: Command, context: CommandContext, setExitCode: (code: number) => void): void {
  mcp
    .command('list')
    .description('List the configured servers with their transport, scope and live status')
    .option('--no-connect', 'do not connect: show the configured state (enabled, disabled, blocked) only')
    .option(
      '--debug',
      'print what stdio servers write to stderr while they are connected (escaped, prefixed with the server name), and the technical detail of each failure',
    )
    .action(async (options: { connect: boolean; debug?: boolean }) => {
      const settings = await loadSettings(context.location());
      for (const warning of settings.warnings) context.io.stderr(`${formatProblem('Warning', warning.code, warning.message)}\n`);
      for (const error of settings.errors) context.io.stderr(`${formatProblem('Error', error.code, error.message)}\n`);
      if (settings.servers.length === 0) {
        context.io.stdout('No MCP servers configured.\n');
      } else {
        const check = options.connect
          ? (context.io.checkConnection ??
            createProbeConnectionCheck({
              tokenStore: context.tokenStore(),
              env: context.io.env,
              authCommand: context.command('mcp auth'),
              ...debugStderr(context, options.debug),
            }))
          : undefined;
        const rows = await collectServerStatuses(settings, check);
        const debug = context.debug || options.debug === true;
        context.io.stdout(`Configured MCP servers:\n\n${rows.flatMap((row) => formatServerRow(row, { debug })).join('\n')}\n`);
      }
      if (settings.errors.length > 0) setExitCode(1);
    });
}
