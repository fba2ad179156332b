import { Option, type Command } from 'commander';
import { removeServer } from '@toolhost/config/edit';
import { escapeControlText } from '@toolhost/contract';
import type { CommandContext } from './command-context.js';

/** Registers `mcp remove <name> [-s scope]`. */
export function registerMcpRemove(mcp: Command, context: CommandContext): void {
  mcp
    .command('remove')
    .description('Remove a server from the user or project settings')
    .argument('<name>', 'name of the server')
    .addOption(new Option('-s, --scope <scope>', 'configuration scope').choices(['user', 'project']).default('project'))
    .action(async (name: string, options: { scope: 'user' | 'project' }) => {
      await removeServer({ ...context.location(), scope: options.scope, name });
      context.io.stdout(`Server "${escapeControlText(name)}" removed from ${options.scope} settings.\n`);
    });
}
