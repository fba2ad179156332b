import type { Command } from 'commander';
import { setServerEnabled } from '@toolhost/config/edit';
import { escapeControlText } from '@toolhost/contract';
import type { CommandContext } from './command-context.js';

/** Registers `mcp enable <name>` and `mcp disable <name>`. */
export function registerMcpEnable(mcp: Command, context: CommandContext): void {
  for (const enabled of [true, false]) {
    const verb = enabled ? 'enable' : 'disable';
    mcp
      .command(verb)
      .description(
        enabled
          ? 'Enable a server that was disabled'
          : `Disable a server (kept in the settings, not connected; recorded in ~/<app-dir>/mcp-server-enablement.json)`,
      )
      .argument('<name>', 'name of the server (letter case does not matter)')
      .action(async (name: string) => {
        const result = await setServerEnabled({ ...context.location(), name, enabled });
        context.io.stdout(
          result.changed
            ? `MCP server "${escapeControlText(result.name)}" ${verb}d.\n`
            : `MCP server "${escapeControlText(result.name)}" is already ${verb}d.\n`,
        );
      });
  }
}
