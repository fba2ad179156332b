import type { Content, FunctionDeclaration, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import type { McpToolHost } from '@toolhost/host';
import { runCommand } from './run-command.js';
import type { Terminal } from './terminal.js';

/** Everything the chat loop needs. */
export interface ChatOptions {
  /** The Gemini client. */
  ai: GoogleGenAI;
  /** The model name. */
  model: string;
  /** The MCP host (discovered), with the Gemini adapter. */
  host: McpToolHost<FunctionDeclaration, GenerateContentResponse | Content, Content>;
  /** The terminal. */
  terminal: Terminal;
}

// Stops a model that keeps calling tools from looping forever on one message.
const MAX_TOOL_ROUNDS = 10;

/** Read lines until /quit or end of input; send each message (or prompt) to Gemini with the MCP tools. */
export async function chat(options: ChatOptions): Promise<void> {
  const { host, terminal } = options;
  const contents: Content[] = [];
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
    const turnStart = contents.length;
    contents.push({ role: 'user', parts: [{ text }] });
    try {
      await answer({ ...options, contents, instructions });
    } catch (error) {
      // Forget the failed turn so the history stays valid for the next message.
      contents.splice(turnStart);
      terminal.print(`Gemini request failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

async function answer(options: ChatOptions & { contents: Content[]; instructions: string[] }): Promise<void> {
  const { ai, model, host, terminal, contents, instructions } = options;
  for (let round = 0; round < MAX_TOOL_ROUNDS; round += 1) {
    const functionDeclarations = host.listTools();
    const response = await ai.models.generateContent({
      model,
      contents,
      config: {
        ...(functionDeclarations.length ? { tools: [{ functionDeclarations }] } : {}),
        ...(instructions.length ? { systemInstruction: instructions.join('\n\n') } : {}),
      },
    });
    const modelTurn = response.candidates?.[0]?.content;
    if (modelTurn) contents.push(modelTurn);
    // Read the text parts directly: `response.text` warns when the turn also has function calls.
    const text = (modelTurn?.parts ?? []).flatMap((part) => (part.text && !part.thought ? [part.text] : [])).join('');
    if (text) terminal.print(text);
    const handled = await host.handleModelResponse(response);
    if (!handled.toolResults) return;
    contents.push(handled.toolResults);
  }
  terminal.print(`(stopped after ${MAX_TOOL_ROUNDS} rounds of tool calls)`);
}
