// The raw v2 SDK side of `pnpm bench:scale`: a `Client` from `@modelcontextprotocol/client` over
// the SDK's own `StreamableHTTPClientTransport`, used directly, as an app would.
import { Client, StreamableHTTPClientTransport, type McpSubscription, type Tool } from '@modelcontextprotocol/client';
import { versionNegotiationOptions } from '@toolhost/discovery';
import { SDK_CLIENT_INFO } from './sdk-baseline-client.js';
import { listenLikeDiscovery } from './sdk-baseline-discovery.js';

/** A connected raw SDK client of one Streamable HTTP echo server, holding its tool list. */
export interface SdkHttpEchoClient {
  /** The revision the client negotiated. */
  readonly protocolVersion: string | undefined;
  /** The tools the client listed (kept, as an app keeps them). */
  readonly tools: readonly Tool[];
  /** One `tools/call` of `echo` with `message`; throws unless the answer is that message. */
  call(message: string): Promise<void>;
  /** Close the subscription and the client. */
  close(): Promise<void>;
}

function textOf(content: unknown): string | undefined {
  const part = (content as Array<{ type: string; text?: unknown }>).find((candidate) => candidate.type === 'text');
  return typeof part?.text === 'string' ? part.text : undefined;
}

/**
 * Connect a raw SDK `Client` to the Streamable HTTP server at `url`, built the way
 * `@toolhost/discovery` builds its own (`capabilities: {}` plus `versionNegotiationOptions` of
 * the entry: `'auto'`), over the SDK's `StreamableHTTPClientTransport` with its defaults; open the
 * list-change subscription where toolhost opens one (2026-07-28, a server declaring
 * `listChanged`), list the tools and check `echo` is there.
 */
export async function connectSdkHttpEchoClient(url: string): Promise<SdkHttpEchoClient> {
  const client = new Client({ ...SDK_CLIENT_INFO }, { capabilities: {}, ...versionNegotiationOptions({ httpUrl: url }) });
  let subscription: McpSubscription | undefined;
  let tools: Tool[];
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    subscription = await listenLikeDiscovery(client);
    ({ tools } = await client.listTools());
    if (!tools.some((tool) => tool.name === 'echo')) throw new Error(`the SDK client did not list the echo tool of ${url}`);
  } catch (error) {
    await subscription?.close().catch(() => undefined);
    await client.close().catch(() => undefined);
    throw error;
  }
  return {
    protocolVersion: client.getNegotiatedProtocolVersion(),
    tools,
    async call(message) {
      const result = await client.callTool({ name: 'echo', arguments: { message } });
      if (result.isError === true || textOf(result.content) !== message)
        throw new Error(`SDK client.callTool did not echo the message (${url})`);
    },
    async close() {
      await subscription?.close().catch(() => undefined);
      await client.close();
    },
  };
}
