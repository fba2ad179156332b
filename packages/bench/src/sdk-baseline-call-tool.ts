// The SDK side of the per-call benchmark, alone in this file so it can be swapped for another SDK
// version: @modelcontextprotocol/sdk v1 `Client` + `StdioClientTransport`, used directly.
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';

/** A connected SDK client on its own child process of the echo fixture. */
export interface SdkEchoClient {
  /** One `tools/call` of `echo` with the message; throws unless the answer is that message. */
  call(): Promise<void>;
  /** Close the client and end its child process. */
  close(): Promise<void>;
}

/**
 * Start the stdio server `node <bin>` with the SDK's defaults (its own small child
 * environment) and connect an SDK `Client` to it.
 */
export async function connectSdkEchoClient(bin: string, message: string): Promise<SdkEchoClient> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin], stderr: 'pipe' });
  transport.stderr?.on('data', () => undefined); // drain the ready line
  const client = new Client({ name: 'toolhost-bench', version: '0.0.0' }, { capabilities: {} });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return {
    async call() {
      const result = await client.callTool({ name: 'echo', arguments: { message } });
      const content = result.content as Array<{ type: string; text?: unknown }>;
      const text = content.find((part) => part.type === 'text')?.text;
      if (result.isError === true || text !== message) throw new Error('SDK client.callTool did not echo the message');
    },
    close: () => client.close(),
  };
}
