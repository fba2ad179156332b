// The SDK side of the discovery benchmark, alone in this file so it can be swapped for another SDK
// version: @modelcontextprotocol/sdk v1 `Client` + `StdioClientTransport`, used directly.
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';

const CLIENT_INFO = { name: 'toolhost-bench', version: '0.0.0' };

/** The environment the SDK gives a stdio child when the caller passes none. */
export function sdkDefaultChildEnvironment(): Record<string, string> {
  return getDefaultEnvironment();
}

/**
 * Discovery with the SDK alone, with its defaults: start `node <bin>` once per name in parallel,
 * connect, list tools, prompts, resources and resource templates, then close every client.
 */
export async function discoverWithSdk(names: readonly string[], bin: string): Promise<void> {
  const clients: Client[] = [];
  try {
    await Promise.all(
      names.map(async () => {
        const transport = new StdioClientTransport({ command: process.execPath, args: [bin], stderr: 'pipe' });
        transport.stderr?.on('data', () => undefined); // drain the ready line
        const client = new Client(CLIENT_INFO, { capabilities: {} });
        clients.push(client);
        await client.connect(transport);
        const [tools] = await Promise.all([
          client.listTools(),
          client.listPrompts(),
          client.listResources(),
          client.listResourceTemplates(),
        ]);
        if (tools.tools.length === 0) throw new Error('SDK discovery found no tools');
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.close()));
  }
}
