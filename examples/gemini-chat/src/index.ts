// Terminal chat with a Gemini model and every MCP tool from your toolhost settings.
import { GoogleGenAI } from '@google/genai';
import { createGeminiAdapter } from '@toolhost/adapter-gemini';
import { JsonFileAllowListStore } from '@toolhost/confirmation/node';
import { McpToolHost } from '@toolhost/host';
import { createConfirmationPrompt } from './ask-confirmation.js';
import { chat } from './chat.js';
import { printToolCall } from './print-tool-call.js';
import { createTerminal } from './terminal.js';

async function main(): Promise<void> {
  const apiKey = process.env['GEMINI_API_KEY'];
  if (!apiKey) {
    console.log(
      'gemini-chat needs GEMINI_API_KEY. Get a key at https://aistudio.google.com/apikey, then run:\n' +
        '  GEMINI_API_KEY=your-key node examples/gemini-chat/dist/index.js',
    );
    return;
  }
  const model = process.env['GEMINI_MODEL'] ?? 'gemini-2.5-flash';
  const appDir = process.env['TOOLHOST_APP_DIR'] ?? '.toolhost';
  const terminal = createTerminal();
  const host = await McpToolHost.create({
    appDir,
    projectDir: process.cwd(),
    adapter: createGeminiAdapter(),
    stores: { approvals: new JsonFileAllowListStore({ appDir }) },
    ui: {
      confirm: createConfirmationPrompt(terminal),
      onToolCallUpdate: (toolCall) => printToolCall(terminal, toolCall),
      openBrowser: async (url) => terminal.print(`Open this URL to sign in: ${url}`),
    },
  });
  try {
    terminal.print('Connecting to MCP servers…');
    const status = await host.discover();
    const connected = status.servers.filter((server) => server.status === 'connected').length;
    terminal.print(
      status.servers.length === 0
        ? `No MCP servers configured: add "mcpServers" to ./${appDir}/settings.json or ~/${appDir}/settings.json.`
        : `${connected}/${status.servers.length} MCP server(s) connected, ${host.listToolDefinitions().length} tool(s).`,
    );
    terminal.print(`Chatting with ${model}. Type /help for commands, /mcp for the server status, /quit to leave.`);
    await chat({ ai: new GoogleGenAI({ apiKey }), model, host, terminal });
  } finally {
    terminal.close();
    await host.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
