import type OpenAI from 'openai';
import type { FunctionTool, Response, ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { McpToolHost } from '@toolhost/host';
import { runCommand } from './run-command.js';
import type { Terminal } from './terminal.js';

/** Everything the chat loop needs. */
export interface ChatOptions {
  /** The OpenAI client. */
  client: OpenAI;
  /** The model name. */
  model: string;
  /** The MCP host (discovered), with the Responses adapter. */
  host: McpToolHost<FunctionTool, Response | readonly ResponseOutputItem[], ResponseInputItem.FunctionCallOutput[]>;
  /** The terminal. */
  terminal: Terminal;
}

// Stops a model that keeps calling tools from looping forever on one message.
const MAX_TOOL_ROUNDS = 10;

/** Read lines until /quit or end of input; send each message (or prompt) to the Responses API with the MCP tools. */
export async function chat(options: ChatOptions): Promise<void> {
  const { host, terminal } = options;
  const input: ResponseInputItem[] = [];
  const instructions = host.getServerInstructions().map((s) => `Instructions from MCP server ${s.serverName}:\n${s.instructions}`);
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
    const turnStart = input.length;
    input.push({ role: 'user', content: text });
    try {
      await answer({ ...options, input, instructions });
    } catch (error) {
      // Forget the failed turn so the history stays valid for the next message.
      input.splice(turnStart);
      terminal.print(`OpenAI request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

async function answer(options: ChatOptions & { input: ResponseInputItem[]; instructions: string[] }): Promise<void> {
  const { client, model, host, terminal, input, instructions } = options;
  for (let round = 0; round < MAX_TOOL_ROUNDS; round += 1) {
    const tools = host.listTools();
    const response = await client.responses.create({
      model,
      input,
      ...(tools.length ? { tools } : {}),
      ...(instructions.length ? { instructions: instructions.join('\n\n') } : {}),
    });
    // The function_call items (and any reasoning) must stay in the history next to their outputs.
    input.push(...(response.output as ResponseInputItem[]));
    if (response.output_text) terminal.print(response.output_text);
    const handled = await host.handleModelResponse(response);
    if (!handled.toolResults) return;
    input.push(...handled.toolResults);
  }
  terminal.print(`(stopped after ${MAX_TOOL_ROUNDS} rounds of tool calls)`);
}
