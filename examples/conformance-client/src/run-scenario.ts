import { McpToolHost, type UiHooks } from '@toolhost/host';
import { createRedirectFollowingOpener } from '@toolhost/oauth';
import { freePort } from './free-port.js';
import { oauthSettings } from './oauth-settings.js';
import { sampleArguments } from './sample-arguments.js';

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

/** The settings entry: the scenario's URL, trusted (no confirmation), with OAuth started on demand. */
function serverEntry(input: ScenarioInput, callbackPort: number): Record<string, unknown> {
  return { httpUrl: input.serverUrl, trust: true, oauth: oauthSettings(input, callbackPort) };
}

/**
 * Runs one scenario through McpToolHost, as an agent would: connect and discover, then call every
 * tool the server offers with arguments from its schema. Elicitations are accepted without
 * changes, so the host's SEP-1034 defaults are what the server receives. Throws when the server
 * cannot be reached or a call fails.
 */
export async function runScenario(input: ScenarioInput): Promise<void> {
  const openBrowser = createRedirectFollowingOpener();
  const ui: UiHooks = {
    elicit: async (request) => {
      input.log(`elicitation (${request.mode}) from ${request.serverName}: ${request.message}`);
      return { action: 'accept', content: {} };
    },
    // Conformance authorization servers approve without a login page: follow the redirect to
    // the host's loopback callback as a browser would.
    openBrowser: async (url) => openBrowser(url),
  };
  const host = await McpToolHost.create({
    settings: { mcpServers: { [SERVER_NAME]: serverEntry(input, await freePort()) } },
    clientInfo: { name: 'toolhost-conformance-client', version: '0.0.0' },
    ui,
  });
  try {
    host.on('sign-in-start', (event) => input.log(`signing in to ${event.serverName}`));
    let status = await host.discover();
    let server = status.servers.find((entry) => entry.name === SERVER_NAME);
    if (server?.status !== 'CONNECTED' && server?.needsAuthentication) {
      // What a user does when `/mcp` says "Authentication: required": `/mcp auth <server>`.
      input.log(`not connected (${server.lastError ?? 'no error'}); authenticating`);
      status = await host.servers.authenticate({ serverName: SERVER_NAME });
      server = status.servers.find((entry) => entry.name === SERVER_NAME);
    }
    if (server?.status !== 'CONNECTED') {
      throw new Error(`server did not connect (${server?.status ?? 'missing'}): ${server?.lastError ?? 'no error reported'}`);
    }
    input.log(`connected; tools: ${server.tools.map((tool) => tool.serverToolName).join(', ') || '(none)'}`);
    for (const tool of host.servers.listTools()) {
      const result = await host.callTool({ name: tool.name, arguments: sampleArguments(tool.inputSchema) });
      input.log(`${tool.originalName} -> ${result.display}`);
      if (result.error) throw result.error;
    }
  } finally {
    await host.close();
  }
}
