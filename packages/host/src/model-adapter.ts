/**
 * The contract between McpToolHost and a model vendor. Adapters live in their own packages
 * (`@toolhost/adapter-gemini`, `-openai`, `-anthropic`); the host never imports vendor code.
 *
 * The contract is versioned by `specificationVersion` so it can grow without breaking adapters
 * written against an earlier version.
 */

import type { ToolIcon } from './client-features/index.js';

/** Schema profiles understood by `@toolhost/schema-sanitizer`. */
export type SchemaProfile = 'gemini' | 'gemini-json-schema' | 'openai-strict' | 'anthropic' | 'none';

/** A JSON Schema object as it travels through the host (never mutated). */
export type JsonSchemaObject = Record<string, unknown>;

/** One MCP tool as the host presents it to an adapter. */
export interface HostToolDefinition {
  /** The name registered for the model (sanitised, unique across servers). */
  readonly name: string;
  /** The server that provides the tool. */
  readonly serverName: string;
  /** The tool's own name on its server (used for `tools/call`). */
  readonly originalName: string;
  /** The tool's description, as the server gave it. */
  readonly description: string;
  /** The tool's input schema as the server gave it; adapters sanitise it with their profile. */
  readonly inputSchema: JsonSchemaObject;
  /** The tool's output schema, when it declares one. */
  readonly outputSchema?: JsonSchemaObject;
  /** Display title, when the server gives one. */
  readonly title?: string;
  /** MCP tool annotations (hints such as `readOnlyHint`), when the server gives them. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /**
   * Icons for displaying the tool (MCP 2025-11-25 `icons`), when the server gives some. Only
   * `https:` and `data:` sources are kept (see `getToolPresentation`); a UI may show them, a
   * model adapter ignores them.
   */
  readonly icons?: readonly ToolIcon[];
}

/** A tool call the model asked for, in vendor-neutral form. */
export interface ModelToolCall {
  /** The vendor's call id, when the vendor has one (OpenAI, Anthropic); echoed back in the result. */
  readonly id?: string;
  /** The registered tool name the model used. */
  readonly name: string;
  /** The arguments the model produced. */
  readonly arguments: Record<string, unknown>;
}

/** A model-neutral part of a tool result, as produced by `@toolhost/content-mapper`. */
export type ToolResultPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'inlineData'; readonly mimeType: string; readonly data: string };

/** The outcome of one tool call, ready for an adapter to turn into vendor parts. */
export interface ToolCallOutcome {
  /** The call this outcome answers. */
  readonly call: ModelToolCall;
  /** Parts for the model: all text in one part first, then one part per image, audio or blob. */
  readonly parts: readonly ToolResultPart[];
  /** True when the tool failed, was refused or was cancelled; the text part says why. */
  readonly isError: boolean;
  /**
   * The server's `structuredContent`, when it sent one; for a tool with an `outputSchema` that
   * returned its JSON only as text, that JSON object (checked leniently, see `checkStructuredContent`).
   */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
}

/**
 * A model vendor behind McpToolHost.
 *
 * @typeParam TTool - the vendor's tool declaration type.
 * @typeParam TResponse - what the vendor's API returns (where tool calls are found).
 * @typeParam TToolResults - what the vendor's API expects back for tool results.
 */
export interface ModelAdapter<TTool = unknown, TResponse = unknown, TToolResults = unknown> {
  /** Version of this contract the adapter implements. */
  readonly specificationVersion: 'v1';
  /** The vendor, for messages and status (`gemini`, `openai`, `anthropic`, ...). */
  readonly provider: string;
  /** The sanitizer profile used for this vendor's tool schemas. */
  readonly schemaProfile: SchemaProfile;
  /** Turn the host's tools into the vendor's tool declarations. */
  toTools(tools: readonly HostToolDefinition[]): TTool[];
  /** Find the tool calls in a vendor response (empty when the model asked for none). */
  getToolCalls(response: TResponse): ModelToolCall[];
  /** Turn tool outcomes into what the vendor expects in the next request. */
  toToolResults(outcomes: readonly ToolCallOutcome[]): TToolResults;
  /**
   * Answer an MCP `sampling/createMessage` request with this vendor's model.
   * Optional: a host whose adapter has no `createMessage` declines sampling.
   */
  createMessage?(request: SamplingRequest, options: { signal?: AbortSignal }): Promise<SamplingResponse>;
}

/** A `sampling/createMessage` request, reduced to what an adapter needs. */
export interface SamplingRequest {
  /** The conversation the server wants completed. */
  readonly messages: ReadonlyArray<{
    readonly role: 'user' | 'assistant';
    readonly content: ToolResultPart | ReadonlyArray<ToolResultPart>;
  }>;
  /** A system prompt the server asked for. */
  readonly systemPrompt?: string;
  /** The most tokens the server wants back. */
  readonly maxTokens: number;
  /** Sampling temperature, when given. */
  readonly temperature?: number;
  /** Stop sequences, when given. */
  readonly stopSequences?: readonly string[];
  /** The server's model preferences (hints, priorities), passed through. */
  readonly modelPreferences?: Readonly<Record<string, unknown>>;
}

/** An adapter's answer to a sampling request. */
export interface SamplingResponse {
  /** The model that answered. */
  readonly model: string;
  /** Why generation stopped (`endTurn`, `maxTokens`, `stopSequence`, or a vendor value). */
  readonly stopReason?: string;
  /** The generated text. */
  readonly text: string;
}
