import { McpToolHost, type ElicitationResponse, type UiHooks } from '@toolhost/host';
import { sampleArguments } from './sample-arguments.js';
import { followRedirectBrowser } from './follow-redirect-browser.js';

/** What the conformance runner gives the client. */
export interface ScenarioInput {
  /** The scenario's MCP endpoint (the runner appends it to the command line). */
  readonly serverUrl: string;
  /** `MCP_CONFORMANCE_SCENARIO`. */
  readonly scenario: string;
  /** `MCP_CONFORMANCE_CONTEXT`, parsed (client credentials and the like), when set. */
  readonly context?: Readonly<Record<string, unknown>>;
  /** Where progress lines go (stderr in the binary). */
  readonly log: (line: string) => void;
}

const SERVER_NAME = 'conformance';

/**
 * Runs one scenario through McpToolHost, as an agent would: connect and discover, then call every
 * tool the server offers with arguments from its schema. Elicitations are accepted without
 * changes, so the host's SEP-1034 defaults are what the server receives. Throws when the server
 * cannot be reached or a call fails.
 */
export async function runScenario(input: ScenarioInput): Promise<void> {
  const ui: UiHooks = {
    elicit: async (request): Promise<ElicitationResponse> => {
      input.log(`elicitation (${request.mode}) from ${request.serverName}: ${request.message}`);
      return { action: 'accept', content: {} };
    },
    openBrowser: (url) => followRedirectBrowser(url),
  };
  const host = await McpToolHost.create({
    settings: { mcpServers: { [SERVER_NAME]: { httpUrl: input.serverUrl, trust: true } } },
    clientInfo: { name: 'toolhost-conformance-client', version: '0.0.0' },
    ui,
  });
  try {
    const status = await host.discover();
    const server = status.servers.find((entry) => entry.name === SERVER_NAME);
    if (server?.status !== 'connected') {
      throw new Error(`server did not connect (${server?.status ?? 'missing'}): ${server?.lastError ?? 'no error reported'}`);
    }
    input.log(`connected; tools: ${server.tools.map((tool) => tool.serverToolName).join(', ') || '(none)'}`);
    for (const tool of host.listToolDefinitions()) {
      const result = await host.callTool(tool.name, sampleArguments(tool.inputSchema));
      input.log(`${tool.originalName} -> ${result.display}`);
      if (result.error) throw result.error;
    }
  } finally {
    await host.close();
  }
}
