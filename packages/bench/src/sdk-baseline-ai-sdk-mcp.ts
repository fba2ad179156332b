// The baseline of the AI SDK per-call benchmark: `@ai-sdk/mcp`'s own MCP client (not the MCP
// TypeScript SDK) over its stdio transport, its tools as the AI SDK gets them from `client.tools()`.
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import type { StdioServerEntry } from './wires.js';

/** A connected `@ai-sdk/mcp` client on its own child process of the echo fixture, with its AI SDK tools. */
export interface AiSdkMcpEchoClient {
  /** The revision the client negotiated (`initialize`; `@ai-sdk/mcp` speaks nothing newer than 2025-11-25). */
  readonly protocolVersion: string | undefined;
  /** One call of the `echo` tool's `execute`; throws unless the answer is the message. */
  execute(): Promise<void>;
  /** `execute` and then the tool's `toModelOutput`, as `generateText` does for every call. */
  executeAndMap(): Promise<void>;
  /** Close the client and end its child process. */
  close(): Promise<void>;
}

type EchoTool = {
  execute(input: unknown, options: { toolCallId: string; messages: never[] }): Promise<unknown>;
  toModelOutput?(options: { toolCallId: string; input: unknown; output: unknown }): unknown;
};

function textOf(output: unknown): string | undefined {
  const content = (output as { content?: Array<{ type: string; text?: unknown }> }).content;
  const part = content?.find((candidate) => candidate.type === 'text');
  return typeof part?.text === 'string' ? part.text : undefined;
}

/**
 * Start the stdio server of `entry` with `@ai-sdk/mcp`'s `Experimental_StdioMCPTransport` (its
 * default child environment), connect `createMCPClient`, and take the `echo` tool of
 * `client.tools()` (which lists the tools once, as an app does before its first request).
 */
export async function connectAiSdkMcpEchoClient(entry: StdioServerEntry, message: string): Promise<AiSdkMcpEchoClient> {
  const transport = new Experimental_StdioMCPTransport({ command: entry.command, args: entry.args, stderr: 'ignore' });
  const client = await createMCPClient({ transport, name: 'toolhost-bench' });
  let echo: EchoTool | undefined;
  try {
    echo = (await client.tools())['echo'] as EchoTool | undefined;
    if (!echo?.toModelOutput) throw new Error('the @ai-sdk/mcp client did not list the echo tool');
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  const tool = echo;
  const input = { message };
  let calls = 0;
  const execute = async (): Promise<unknown> => {
    calls += 1;
    const output = await tool.execute(input, { toolCallId: `call-${calls}`, messages: [] });
    if ((output as { isError?: unknown }).isError === true || textOf(output) !== message)
      throw new Error('@ai-sdk/mcp echo did not echo the message');
    return output;
  };
  return {
    protocolVersion: (transport as unknown as { protocolVersion?: string }).protocolVersion,
    async execute() {
      await execute();
    },
    async executeAndMap() {
      const output = await execute();
      await tool.toModelOutput?.({ toolCallId: `call-${calls}`, input, output });
    },
    close: () => client.close(),
  };
}
