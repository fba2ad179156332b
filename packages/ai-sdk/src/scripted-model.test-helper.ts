// Test helper: the AI SDK's own mock language model (ai/test) playing scripted turns.
import { fixtureBinPath, type FixtureBehaviour } from '@toolhost-internal/fixtures';
import { McpToolHost, type McpToolHostOptions, type ToolCall } from '@toolhost/host';
import * as ai from 'ai';
import type { ModelMessage } from 'ai';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { createAiSdkAdapter } from './create-ai-sdk-adapter.js';

/** What the model is asked (the provider-level call options). */
export type LanguageModelV3CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type LanguageModelV3StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/** One scripted model answer: tool calls (input as an object), or text. */
export interface ScriptedTurn {
  readonly toolCalls?: ReadonlyArray<{ readonly id: string; readonly name: string; readonly input: unknown }>;
  readonly text?: string;
}

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function generateResult(turn: ScriptedTurn): LanguageModelV3GenerateResult {
  const calls = turn.toolCalls ?? [];
  return {
    content: [
      ...(turn.text !== undefined ? [{ type: 'text' as const, text: turn.text }] : []),
      ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) })),
    ],
    finishReason: { unified: calls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
    usage: USAGE,
    warnings: [],
  };
}

function streamParts(turn: ScriptedTurn): LanguageModelV3StreamPart[] {
  const calls = turn.toolCalls ?? [];
  return [
    { type: 'stream-start', warnings: [] },
    ...(turn.text !== undefined
      ? [
          { type: 'text-start' as const, id: 't1' },
          { type: 'text-delta' as const, id: 't1', delta: turn.text },
          { type: 'text-end' as const, id: 't1' },
        ]
      : []),
    ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.input) })),
    { type: 'finish', finishReason: { unified: calls.length > 0 ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE },
  ];
}

/** A `MockLanguageModelV3` that answers `doGenerate` and `doStream` with the next scripted turn; `calls` records every request. */
export function scriptedModel(turns: ScriptedTurn[]): {
  model: MockLanguageModelV3;
  calls: LanguageModelV3CallOptions[];
  push(...more: ScriptedTurn[]): void;
} {
  const queue = [...turns];
  const calls: LanguageModelV3CallOptions[] = [];
  const next = (options: LanguageModelV3CallOptions): ScriptedTurn => {
    calls.push(options);
    const turn = queue.shift();
    if (!turn) throw new Error('the scripted model ran out of turns');
    return turn;
  };
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => generateResult(next(options)),
    doStream: async (options) => ({ stream: convertArrayToReadableStream(streamParts(next(options))) }),
  });
  return { model, calls, push: (...more) => queue.push(...more) };
}

/** A discovered host on fixture servers (stdio), with the AI SDK adapter; records tool-call updates. */
export async function fixtureHost(
  servers: Record<string, { readonly behaviour: FixtureBehaviour; readonly trust?: boolean; readonly args?: readonly string[] }>,
  options: Omit<McpToolHostOptions, 'settings'> = {},
): Promise<{ host: McpToolHost; updates: ToolCall[] }> {
  const mcpServers = Object.fromEntries(
    Object.entries(servers).map(([name, server]) => [
      name,
      {
        command: process.execPath,
        args: [fixtureBinPath(server.behaviour), ...(server.args ?? [])],
        ...(server.trust ? { trust: true } : {}),
      },
    ]),
  );
  const host = await McpToolHost.create({ adapter: createAiSdkAdapter(), ...options, settings: { mcpServers } });
  const updates: ToolCall[] = [];
  host.on('tool-call-update', (update) => updates.push(update));
  try {
    await host.discover();
  } catch (error) {
    await host.close();
    throw error;
  }
  return { host, updates };
}

/** The prompt's tool-result parts of a recorded model request. */
export function toolResultsOf(
  call: LanguageModelV3CallOptions | undefined,
): Array<{ toolCallId: string; toolName: string; output: unknown }> {
  const results: Array<{ toolCallId: string; toolName: string; output: unknown }> = [];
  for (const message of call?.prompt ?? []) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') results.push(part);
  }
  return results;
}

/** Whether the tests run with `ai` 7 or later (an export `ai` 6 does not have). */
export const AI_7 = typeof (ai as Record<string, unknown>)['uploadFile'] === 'function';

/** The part type an image of a tool result has in a V3 model's prompt: `image-data` with `ai` 6, `file-data` with `ai` 7 (V3 compatibility). */
export const IMAGE_PROMPT_PART = AI_7 ? 'file-data' : 'image-data';

/**
 * Every message a `generateText` result adds to the conversation: `response.messages` with `ai` 6;
 * `ai` 7 keeps the tool results of approved calls out of it, in `responseMessages`.
 */
export function responseMessagesOf(result: { readonly response: { readonly messages: ModelMessage[] } }): ModelMessage[] {
  return (result as { responseMessages?: ModelMessage[] }).responseMessages ?? result.response.messages;
}

/** The same for a `streamText` result. */
export async function streamResponseMessagesOf(result: {
  readonly response: PromiseLike<{ readonly messages: ModelMessage[] }>;
}): Promise<ModelMessage[]> {
  const all = (result as { responseMessages?: PromiseLike<ModelMessage[]> }).responseMessages;
  return all ? await all : (await result.response).messages;
}
