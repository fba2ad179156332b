// The raw v2 SDK side of the per-call benchmark: a `Client` from `@modelcontextprotocol/client`
// used directly (see sdk-baseline-client.ts for how it is built and connected).
import { connectSdkClient } from './sdk-baseline-client.js';
import type { StdioServerEntry } from './wires.js';

/** A connected raw SDK client on its own child process of the echo fixture. */
export interface SdkEchoClient {
  /** The revision the client negotiated. */
  readonly protocolVersion: string | undefined;
  /** One `tools/call` of `echo` with the message; throws unless the answer is that message. */
  call(): Promise<void>;
  /** Close the client and end its child process. */
  close(): Promise<void>;
}

function textOf(content: unknown): string | undefined {
  const part = (content as Array<{ type: string; text?: unknown }>).find((candidate) => candidate.type === 'text');
  return typeof part?.text === 'string' ? part.text : undefined;
}

/**
 * Start the stdio server of `entry` and connect a raw SDK `Client` to it with toolhost's version
 * negotiation, then list its tools once (as a host's discovery does before the first call) and
 * check `echo` is there.
 */
export async function connectSdkEchoClient(entry: StdioServerEntry, message: string): Promise<SdkEchoClient> {
  const client = await connectSdkClient(entry);
  try {
    const { tools } = await client.listTools();
    if (!tools.some((tool) => tool.name === 'echo')) throw new Error('the SDK client did not list the echo tool');
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return {
    protocolVersion: client.getNegotiatedProtocolVersion(),
    async call() {
      const result = await client.callTool({ name: 'echo', arguments: { message } });
      if (result.isError === true || textOf(result.content) !== message) throw new Error('SDK client.callTool did not echo the message');
    },
    close: () => client.close(),
  };
}
