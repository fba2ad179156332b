import { HostError, type McpToolHost } from '@toolhost/host';
import type { Terminal } from './terminal.js';

/** What a typed line turned into. */
export type LineAction = { kind: 'quit' } | { kind: 'handled' } | { kind: 'send'; text: string };

/**
 * Handle a line that starts with `/`: `/quit`, `/help`, `/mcp` (the status view), or an MCP
 * prompt as a slash command, whose text is then sent to the model.
 */
export async function runCommand(options: { host: McpToolHost; terminal: Terminal; line: string }): Promise<LineAction> {
  const { host, terminal, line } = options;
  const command = line.trim();
  if (command === '/quit' || command === '/exit') return { kind: 'quit' };
  if (command === '/help') {
    terminal.print('Commands: /mcp [list|desc|schema] [server], /help, /quit');
    const prompts = host.prompts.list();
    if (prompts.length === 0) terminal.print('No MCP prompts are available as slash commands.');
    for (const prompt of prompts) {
      const args = prompt.arguments.map((a) => (a.required ? `--${a.name}=…` : `[--${a.name}=…]`)).join(' ');
      terminal.print(`  /${prompt.name} ${args}  ${prompt.description}`);
    }
    return { kind: 'handled' };
  }
  if (command === '/mcp') {
    terminal.print(host.servers.formatStatus());
    return { kind: 'handled' };
  }
  try {
    const result = await host.commands.run({ line: command });
    if (result.kind === 'text') {
      terminal.print(result.text);
      return { kind: 'handled' };
    }
    terminal.print(`(prompt /${result.commandName} from ${result.serverName})`);
    return { kind: 'send', text: result.text };
  } catch (error) {
    terminal.print(HostError.isInstance(error) ? error.message : String(error));
    return { kind: 'handled' };
  }
}
