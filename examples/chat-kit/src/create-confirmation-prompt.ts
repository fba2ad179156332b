import type { UiHooks } from '@toolhost/host';
import type { Terminal } from './terminal.js';

/**
 * The `confirm` hook: shows the tool, its server and arguments, and lets the user pick one of
 * the offered options (allow once / always allow tool / always allow server / cancel), which
 * it answers with. Anything else cancels.
 */
export function createConfirmationPrompt(terminal: Terminal): NonNullable<UiHooks['confirm']> {
  return async (request, options) => {
    const details = request.mcpDetails;
    terminal.print('');
    terminal.print(`? ${request.title}: "${details.toolName}" from MCP server "${details.serverName}"`);
    if (details.toolDescription) terminal.print(`  ${details.toolDescription}`);
    if (request.argumentsPreview) terminal.print(`  arguments: ${request.argumentsPreview}`);
    if (request.changeSummary) terminal.print(`  The server changed this tool since you allowed it:\n${request.changeSummary}`);
    request.options.forEach((option, index) => terminal.print(`  ${index + 1}) ${option.name}`));
    const answer = await terminal.ask(`  choice [1-${request.options.length}, default ${request.options.length}]: `, options);
    const index = Number.parseInt(answer ?? '', 10) - 1;
    return request.options[index] ?? 'cancel';
  };
}
