// toolhost quickstart: an offline tour of McpToolHost with real MCP servers and a scripted model.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { McpToolHost, type ToolCall, type UiHooks } from '@toolhost/host';
import { createScriptedAdapter } from '@toolhost/host/testing';

const require = createRequire(import.meta.url);

/** Path of `mcp-server-everything`, the MCP reference server with every feature. */
function everythingServer(): string {
  return join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
}

function heading(title: string): void {
  console.log(`\n━━ ${title} ${'━'.repeat(Math.max(0, 66 - title.length))}`);
}

async function main(): Promise<void> {
  // A scripted "model": it asks for two tools, then answers. No network, no API key.
  const adapter = createScriptedAdapter({
    turns: [
      {
        text: 'Let me fetch the logo and echo a greeting.',
        toolCalls: [
          { id: 'call-1', name: 'get-tiny-image', arguments: {} },
          { id: 'call-2', name: 'echo', arguments: { message: 'Hello from toolhost!' } },
        ],
      },
      {
        text: 'Now a sum from the same server (already allowed, so nobody is asked).',
        toolCalls: [{ id: 'call-3', name: 'get-sum', arguments: { a: 2, b: 3 } }],
      },
      { text: 'Here is the MCP logo, your greeting, and 2 + 3 = 5.' },
    ],
  });

  // The confirmation dialog, answered by a script: always allow the whole `everything` server.
  // Like a real dialog, it answers with the option picked from `request.options` (its id would do too).
  const script = ['proceed_always_server'];
  const confirm: NonNullable<UiHooks['confirm']> = async (request) => {
    const wanted = script.shift() ?? 'cancel';
    const choice = request.options.find((option) => option.id === wanted);
    console.log(`  ? ${request.title}: ${request.mcpDetails.serverName} › ${request.mcpDetails.toolName}`);
    console.log(`    arguments: ${request.argumentsPreview}`);
    console.log(`    options:   ${request.options.map((option) => option.id).join(' | ')}`);
    console.log(`    answer:    ${choice?.id ?? 'cancel'} (scripted)`);
    return choice ?? 'cancel';
  };

  const host = await McpToolHost.create({
    settings: {
      mcpServers: {
        // The fixture server is trusted: its tools run without asking.
        fixture: { command: process.execPath, args: [fixtureBinPath('basic')], trust: true, timeout: 30_000 },
        // The reference server is not: its tools need the user's confirmation.
        everything: { command: process.execPath, args: [everythingServer(), 'stdio'], timeout: 30_000 },
      },
    },
    adapter,
    ui: { confirm },
  });
  host.on('tool-call-update', (call: ToolCall) => {
    const detail = call.error
      ? ` — ${call.error.message}`
      : call.output
        ? ` — ${call.output.text}`
        : call.confirmationRequest
          ? ' — waiting for the user'
          : '';
    console.log(`  [${call.status}] ${call.toolName}${detail.replace(/\s+/g, ' ').slice(0, 120)}`);
  });

  try {
    heading('1. Discovery');
    // What the model gets, and each server skipped with why: print it, or a model without tools goes unexplained.
    const report = await host.discover();
    console.log(`  ${report.summary.replaceAll('\n', '\n  ')}`);
    const tools = host.servers.listTools();
    console.log(`  "echo" exists on both servers: the first in the settings keeps the bare name,`);
    console.log(
      `  the other is registered as "${tools.find((tool) => tool.serverName === 'everything' && tool.originalName === 'echo')?.name}".`,
    );

    heading('2. Status (/mcp)');
    console.log(host.servers.formatStatus());

    heading('3. The model asks for tools; the user confirms');
    for (let turn = adapter.nextTurn(); ; turn = adapter.nextTurn()) {
      console.log(`  model: ${turn.text}`);
      const { outcomes } = await host.handleModelResponse(turn);
      if (outcomes.length === 0) break;
      for (const outcome of outcomes) {
        for (const part of outcome.parts) {
          if (part.type === 'inlineData') {
            console.log(`  → ${outcome.call.name}: image part for the model (${part.mimeType}, ${part.data.length} base64 characters)`);
          } else {
            console.log(`  → ${outcome.call.name}: text part for the model: ${JSON.stringify(part.text)}`);
          }
        }
      }
    }

    heading('4. A prompt as a slash command');
    for (const prompt of host.prompts.list()) {
      const args = prompt.arguments.map((arg) => `--${arg.name}${arg.required ? '' : '?'}`).join(' ');
      console.log(`  /${prompt.name} ${args}  (${prompt.serverName})`);
    }
    for (const line of ['/poem-writer --title="Gemini CLI" --mood="reverent"', '/poem-writer "Gemini CLI" reverent']) {
      const result = await host.commands.run({ line });
      console.log(`  ${line}\n    → prompt for the model: ${JSON.stringify(result.text)}`);
    }
  } finally {
    await host.close();
  }
  heading('Done');
  console.log('  All servers closed. Swap the scripted adapter for @toolhost/adapter-gemini, -openai or -anthropic to use a real model.');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
