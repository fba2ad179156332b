import { JsonFileAllowListStore } from '@toolhost/confirmation/node';
import { McpToolHost, type ModelAdapter } from '@toolhost/host';
import type { ChatModel } from './chat-model.js';
import { createConfirmationPrompt } from './create-confirmation-prompt.js';
import { printToolCall } from './print-tool-call.js';
import { runChat } from './run-chat.js';
import { createTerminal } from './terminal.js';

/** What distinguishes one vendor's chat example from another. */
export interface ChatExampleOptions<TItem, TTool, TResponse, TToolResults> {
  /** The example's folder name under `examples/`, e.g. `gemini-chat`. */
  readonly name: string;
  /** The environment variable holding the API key, e.g. `GEMINI_API_KEY`. */
  readonly apiKeyVariable: string;
  /** Where to get a key, said when it is missing, e.g. `Get a key at https://…`. */
  readonly apiKeyHelp: string;
  /** The environment variable naming the model, e.g. `GEMINI_MODEL`. */
  readonly modelVariable: string;
  /** The model used when `modelVariable` is not set. */
  readonly defaultModel: string;
  /** The vendor's adapter for the host. */
  readonly adapter: ModelAdapter<TTool, TResponse, TToolResults>;
  /** Build the vendor's side of the chat once the key and model are known. */
  readonly createModel: (options: { apiKey: string; model: string }) => ChatModel<TItem, TTool, TResponse, TToolResults>;
}

/**
 * The whole terminal chat program: check the API key, connect to the MCP servers of the
 * toolhost settings (`TOOLHOST_APP_DIR`, default `.toolhost`) with "always allow" answers kept
 * in `<appDir>/mcp-allowlist.json`, report what connected, and chat until /quit.
 */
export async function runChatExample<TItem, TTool, TResponse, TToolResults>(
  options: ChatExampleOptions<TItem, TTool, TResponse, TToolResults>,
): Promise<void> {
  const { name, apiKeyVariable } = options;
  const apiKey = process.env[apiKeyVariable];
  if (!apiKey) {
    console.log(
      `${name} needs ${apiKeyVariable}. ${options.apiKeyHelp}, then run:\n` +
        `  ${apiKeyVariable}=your-key node examples/${name}/dist/index.js`,
    );
    return;
  }
  const model = process.env[options.modelVariable] ?? options.defaultModel;
  const appDir = process.env['TOOLHOST_APP_DIR'] ?? '.toolhost';
  const terminal = createTerminal();
  const host = await McpToolHost.create({
    appDir,
    projectDir: process.cwd(),
    adapter: options.adapter,
    stores: { approvals: new JsonFileAllowListStore({ appDir }) },
    ui: {
      confirm: createConfirmationPrompt(terminal),
      openBrowser: async (url) => terminal.print(`Open this URL to sign in: ${url}`),
    },
  });
  host.on('tool-call-update', (toolCall) => printToolCall(terminal, toolCall));
  // The settings' warnings are in the discovery summary; the others (after a reload, a look-alike
  // sign-in host) are printed as they come.
  const inSummary = new Set(host.servers.status().warnings.map((warning) => warning.message));
  let discovering = true;
  host.on('warning', (warning) => {
    if (!(discovering && inSummary.has(warning.message))) terminal.print(`Warning: ${warning.message}`);
  });
  try {
    terminal.print('Connecting to MCP servers…');
    const report = await host.discover();
    discovering = false;
    // What the model gets, and why a server was skipped (an untrusted folder, a failed start, a sign-in).
    terminal.print(report.summary);
    if (report.servers.length === 0) terminal.print(`Add "mcpServers" to ./${appDir}/settings.json or ~/${appDir}/settings.json.`);
    terminal.print(`Chatting with ${model}. Type /help for commands, /mcp for the server status, /quit to leave.`);
    await runChat({ host, model: options.createModel({ apiKey, model }), terminal });
  } finally {
    terminal.close();
    await host.close();
  }
}
