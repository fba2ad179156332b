import type { McpToolHost } from '@toolhost/host';
import type { ChatModel } from './chat-model.js';
import { runCommand } from './run-command.js';
import type { Terminal } from './terminal.js';

/** Everything the chat loop needs. */
export interface RunChatOptions<TItem, TTool, TResponse, TToolResults> {
  /** The MCP host (discovered), with the adapter matching `model`. */
  readonly host: McpToolHost<TTool, TResponse, TToolResults>;
  /** The vendor's side of the conversation. */
  readonly model: ChatModel<TItem, TTool, TResponse, TToolResults>;
  /** The terminal. */
  readonly terminal: Terminal;
}

/** Tool rounds one message may cause before the chat stops asking the model. */
export const MAX_TOOL_ROUNDS = 10;

/**
 * Read lines until /quit or end of input; run slash commands, and send each message (or
 * prompt) to the model with the MCP tools, running the tools it asks for until it answers.
 * A failed request is reported and forgotten, so the history stays valid for the next message.
 */
export async function runChat<TItem, TTool, TResponse, TToolResults>(
  options: RunChatOptions<TItem, TTool, TResponse, TToolResults>,
): Promise<void> {
  const { host, model, terminal } = options;
  const history: TItem[] = [];
  const serverInstructions = host.servers.instructions().map((s) => `Instructions from MCP server ${s.serverName}:\n${s.instructions}`);
  const instructions = serverInstructions.length ? serverInstructions.join('\n\n') : undefined;
  for (;;) {
    const line = await terminal.ask('\n> ');
    if (line === undefined) return;
    if (!line.trim()) continue;
    let text = line;
    if (line.trimStart().startsWith('/')) {
      const action = await runCommand({ host, terminal, line });
      if (action.kind === 'quit') return;
      if (action.kind === 'handled') continue;
      text = action.text;
    }
    const turnStart = history.length;
    history.push(model.userMessage(text));
    try {
      await answer({ ...options, history, instructions });
    } catch (error) {
      history.splice(turnStart);
      terminal.print(`${model.name} request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

async function answer<TItem, TTool, TResponse, TToolResults>(
  options: RunChatOptions<TItem, TTool, TResponse, TToolResults> & { history: TItem[]; instructions: string | undefined },
): Promise<void> {
  const { host, model, terminal, history, instructions } = options;
  for (let round = 0; round < MAX_TOOL_ROUNDS; round += 1) {
    const reply = await model.generate({ history, tools: host.listTools(), instructions });
    history.push(...reply.items);
    if (reply.text) terminal.print(reply.text);
    const handled = await host.handleModelResponse(reply.response);
    if (!handled.toolResults) return;
    history.push(...model.toolResultItems(handled.toolResults));
  }
  terminal.print(`(stopped after ${MAX_TOOL_ROUNDS} rounds of tool calls)`);
}
