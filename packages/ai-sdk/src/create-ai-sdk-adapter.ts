import { AdapterError, type JsonSchemaObject, type ModelAdapter, type ModelToolCall, type ToolCallOutcome } from '@toolhost/contract';
import { sanitizeSchema, type SchemaProfile } from '@toolhost/schema-sanitizer';
import type { ToolModelMessage } from 'ai';
import { AI_SDK_TOOL_NAME_POLICY } from './ai-sdk-tool-name-policy.js';
import { toAiSdkModelOutput } from './tool-output.js';

/** A tool as {@link createAiSdkAdapter} declares it (`host.listTools()`); `createAiSdkTools` builds executable tools instead. */
export interface AiSdkToolDeclaration {
  /** The host's name for the tool. */
  readonly name: string;
  /** The tool's description. */
  readonly description: string;
  /** The input schema, sanitised with the adapter's profile. */
  readonly inputSchema: JsonSchemaObject;
}

/** Where {@link createAiSdkAdapter} finds tool calls: a `generateText` result, a step result, or any object with `toolCalls`. */
export interface AiSdkToolCalls {
  /** The tool calls of the model's response. */
  readonly toolCalls: ReadonlyArray<{ readonly toolCallId: string; readonly toolName: string; readonly input: unknown }>;
}

/** Options of {@link createAiSdkAdapter}. */
export interface AiSdkAdapterOptions {
  /** The sanitizer profile of the declared input schemas. @default 'anthropic' */
  readonly schemaProfile?: SchemaProfile;
}

/** The model adapter of {@link createAiSdkAdapter}. */
export type AiSdkAdapter = ModelAdapter<AiSdkToolDeclaration, AiSdkToolCalls, ToolModelMessage>;

/**
 * The model adapter to create an `McpToolHost` with when the model is reached through the AI SDK:
 * it names every tool under {@link AI_SDK_TOOL_NAME_POLICY}, which every provider accepts. Its
 * other half serves apps that run tools themselves instead of through `createAiSdkTools`:
 * `host.handleModelResponse(result)` reads the calls of a `generateText` result (or step) whose
 * tools have no `execute`, and answers with one `role: 'tool'` message of `tool-result` parts
 * (the same model output as `createAiSdkTools`), confirmations through the host's `confirm` hook.
 *
 * @example
 * ```ts
 * const host = await McpToolHost.create({ projectDir: process.cwd(), adapter: createAiSdkAdapter(), deferConfirmations: true });
 * ```
 */
export function createAiSdkAdapter(options: AiSdkAdapterOptions = {}): AiSdkAdapter {
  const schemaProfile = options.schemaProfile ?? 'anthropic';
  return {
    specificationVersion: 'v1',
    provider: 'ai-sdk',
    schemaProfile,
    toolNames: AI_SDK_TOOL_NAME_POLICY,
    toTools: (tools) =>
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: sanitizeSchema(tool.inputSchema, { profile: schemaProfile }) as JsonSchemaObject,
      })),
    getToolCalls: (response) =>
      response.toolCalls.map((call): ModelToolCall => {
        const input: unknown = call.input ?? {};
        if (typeof input !== 'object' || input === null || Array.isArray(input)) {
          throw new AdapterError({
            code: 'INVALID_TOOL_ARGUMENTS',
            message: `The input the model produced for tool '${call.toolName}' is not a JSON object; retry the turn.`,
            provider: 'ai-sdk',
            toolName: call.toolName,
            callId: call.toolCallId,
          });
        }
        return { id: call.toolCallId, name: call.toolName, arguments: { ...(input as Record<string, unknown>) } };
      }),
    toToolResults: (outcomes: readonly ToolCallOutcome[]): ToolModelMessage => ({
      role: 'tool',
      content: outcomes.map((outcome) => ({
        type: 'tool-result',
        toolCallId: outcome.call.id ?? '',
        toolName: outcome.call.name,
        output: toAiSdkModelOutput({
          content: outcome.parts,
          isError: outcome.isError,
          ...(outcome.structuredContent ? { structuredContent: outcome.structuredContent } : {}),
        }),
      })),
    }),
  };
}
