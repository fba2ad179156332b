// Terminal chat with an OpenAI model (Responses API) and every MCP tool from your toolhost settings.
import OpenAI from 'openai';
import { createOpenAIResponsesAdapter } from '@toolhost/adapter-openai';
import { JsonFileAllowListStore } from '@toolhost/confirmation/node';
import { McpToolHost } from '@toolhost/host';
import { createConfirmationPrompt } from './ask-confirmation.js';
import { chat } from './chat.js';
import { printToolCall } from './print-tool-call.js';
import { createTerminal } from './terminal.js';

async function main(): Promise<void> {
  const apiKey = process.env['OPENAI_API_KEY'];
  if (!apiKey) {
    console.log(
      'openai-chat needs OPENAI_API_KEY. Create a key at https://platform.openai.com/api-keys, then run:\n' +
        '  OPENAI_API_KEY=your-key node examples/openai-chat/dist/index.js',
    );
    return;
  }
  const model = process.env['OPENAI_MODEL'] ?? 'gpt-5-mini';
  const appDir = process.env['TOOLHOST_APP_DIR'] ?? '.toolhost';
  const terminal = createTerminal();
  const host = await McpToolHost.create({
    appDir,
    projectDir: process.cwd(),
    adapter: createOpenAIResponsesAdapter(),
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
    // OPENAI_BASE_URL, OPENAI_ORG_ID and OPENAI_PROJECT_ID are read by the client itself.
    await chat({ client: new OpenAI({ apiKey }), model, host, terminal });
  } finally {
    terminal.close();
    await host.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
