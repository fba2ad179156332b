import type { Command } from 'commander';
import { loadSettings } from '@toolhost/config';
import { collectServerStatuses, formatServerLine } from '../server-status.js';
import { formatProblem } from '../format-problem.js';
import type { CommandContext } from './command-context.js';

/** Registers `mcp list`. Exit code 1 when a settings file has an error (the servers that loaded are still listed). */
export function registerMcpList(mcp: Command, context: CommandContext, setExitCode: (code: number) => void): void {
  mcp
    .command('list')
    .description('List the configured servers with their transport, scope and state')
    .action(async () => {
      const settings = await loadSettings(context.location());
      for (const warning of settings.warnings) context.io.stderr(`${formatProblem('Warning', warning.code, warning.message)}\n`);
      for (const error of settings.errors) context.io.stderr(`${formatProblem('Error', error.code, error.message)}\n`);
      if (settings.servers.length === 0) {
        context.io.stdout('No MCP servers configured.\n');
      } else {
        const statuses = await collectServerStatuses(settings, context.io.checkConnection);
        context.io.stdout(`Configured MCP servers:\n\n${statuses.map(({ server, status }) => formatServerLine(server, status)).join('\n')}\n`);
      }
      if (settings.errors.length > 0) setExitCode(1);
    });
}
