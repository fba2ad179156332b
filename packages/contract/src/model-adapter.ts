import type { ContentPart } from './content-part.js';
import type { ToolNamePolicy } from './tool-name-policy.js';
import type { VendorLimits } from './vendor-limits.js';

/** Schema profiles understood by `@toolhost/schema-sanitizer`, one per vendor dialect. */
export type SchemaProfile = 'gemini' | 'gemini-json-schema' | 'openai-strict' | 'anthropic' | 'none';

/** A JSON Schema object as it travels through the host (never mutated). */
export type JsonSchemaObject = Record<string, unknown>;

/** An icon for displaying a tool (MCP 2025-11-25 `icons`); only `https:` and `data:` sources are kept. */
export interface ToolIcon {
  /** `https:` URL or `data:` URI of the image. */
  readonly src: string;
  /** MIME type, when the server gave one. */
  readonly mimeType?: string;
  /** Sizes such as `48x48` or `any`, when the server gave them. */
  readonly sizes?: readonly string[];
  /** `light` or `dark`, when the icon is for one theme only. */
  readonly theme?: string;
}

/** One MCP tool as the host presents it to an adapter and to the host's own code. */
export interface HostToolDefinition {
  /** The name the model sees: unique across servers and valid under the adapter's {@link ToolNamePolicy}. */
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
  /** MCP tool annotations (untrusted hints such as `readOnlyHint`), when the server gives them. */
  readonly annotations?: Readonly<Record<string, unknown>>;
  /** Icons for displaying the tool; a UI may show them, an adapter ignores them. */
  readonly icons?: readonly ToolIcon[];
  /**
   * True when the host defers this tool: it is declared for the vendor's own tool search, which
   * loads its full definition only when the model searches for it (Anthropic's and OpenAI's
   * `defer_loading`). The host sets it only for an adapter whose
   * {@link ModelAdapter.nativeToolSearch} is true; an adapter without native tool search never
   * receives such a tool (it gets the loaded ones only) and refuses one with `INVALID_OPTIONS`.
   */
  readonly deferLoading?: boolean;
}

/** A tool call the model asked for, in vendor-neutral form. */
export interface ModelToolCall {
  /** The vendor's call id, when the vendor has one (OpenAI, Anthropic); echoed back in the result. */
  readonly id?: string;
  /** The tool name the model used (the {@link HostToolDefinition.name} it was given). */
  readonly name: string;
  /** The arguments the model produced. */
  readonly arguments: Record<string, unknown>;
}

/** The outcome of one tool call, ready for an adapter to turn into vendor parts. */
export interface ToolCallOutcome {
  /** The call this outcome answers. */
  readonly call: ModelToolCall;
  /** Parts for the model: all text in one part first, then one part per image, audio or blob. */
  readonly parts: readonly ContentPart[];
  /** True when the tool failed, was refused or was cancelled; the text part says why. */
  readonly isError: boolean;
  /** The server's `structuredContent` (or the JSON object a tool with an `outputSchema` returned as text). */
  readonly structuredContent?: Readonly<Record<string, unknown>>;
}

/** What the host hands an adapter when it reads tool calls from a response. */
export interface ToolCallContext {
  /** The tools declared to the model, by name: an adapter may need a tool's schema to read its arguments. */
  readonly tools: ReadonlyMap<string, HostToolDefinition>;
}

/** A `sampling/createMessage` request, reduced to what an adapter needs. */
export interface SamplingRequest {
  /** The conversation the server wants completed. */
  readonly messages: ReadonlyArray<{
    readonly role: 'user' | 'assistant';
    readonly content: ContentPart | ReadonlyArray<ContentPart>;
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

/**
 * A model vendor behind the host: tool declarations out, tool calls in, tool results back.
 * Adapters are stateless, so one adapter instance can serve any number of hosts. The contract
 * is versioned by `specificationVersion`, so it can grow without breaking adapters written
 * against an earlier version.
 *
 * @typeParam TTool - the vendor's tool declaration type.
 * @typeParam TResponse - what the vendor's API returns (where tool calls are found).
 * @typeParam TToolResults - what the vendor's API expects back for tool results.
 *
 * @example
 * ```ts
 * const echoAdapter: ModelAdapter<string, string[], string> = {
 *   specificationVersion: 'v1',
 *   provider: 'echo',
 *   schemaProfile: 'none',
 *   toolNames: DEFAULT_TOOL_NAME_POLICY,
 *   toTools: (tools) => tools.map((tool) => tool.name),
 *   getToolCalls: (names) => names.map((name) => ({ name, arguments: {} })),
 *   toToolResults: (outcomes) => outcomes.map((outcome) => outcome.call.name).join(', '),
 * };
 * ```
 */
export interface ModelAdapter<TTool = unknown, TResponse = unknown, TToolResults = unknown> {
  /** The version of this contract the adapter implements. */
  readonly specificationVersion: 'v1';
  /** The vendor, for messages and status (`gemini`, `openai`, `anthropic`, ...). */
  readonly provider: string;
  /** The sanitizer profile used for this vendor's tool schemas. */
  readonly schemaProfile: SchemaProfile;
  /** The tool names the vendor accepts; the host names every tool within it. */
  readonly toolNames: ToolNamePolicy;
  /**
   * The vendor's hard limits on one request's tool declarations (how many tools, how large a
   * schema...), each documented with its source. `toTools` never returns declarations the vendor
   * would reject for them: over a limit it throws `AdapterError` `VENDOR_LIMIT_EXCEEDED` (or, for a
   * description, shortens it with a marker). A host reads them to defer tools into tool search
   * before that happens. Optional: an adapter without it states no limits.
   */
  readonly limits?: VendorLimits;
  /**
   * The context window of the model the application uses with this adapter, in tokens, when the
   * application said it (an adapter option: a window belongs to a model, not to a vendor). A host
   * uses it to decide when tool definitions take too large a share of the window.
   */
  readonly contextWindowTokens?: number;
  /**
   * True when the adapter declares tools marked {@link HostToolDefinition.deferLoading} with the
   * vendor's own deferred loading and tool search (Anthropic's tool search tool, OpenAI's
   * `tool_search`), so the host may hand it deferred tools. Absent or false: the host must hand it
   * loaded tools only.
   */
  readonly nativeToolSearch?: boolean;
  /** Turn the host's tools into the vendor's tool declarations (names are used as given). */
  toTools(tools: readonly HostToolDefinition[]): TTool[];
  /** Find the tool calls in a vendor response (empty when the model asked for none). */
  getToolCalls(response: TResponse, context: ToolCallContext): ModelToolCall[];
  /** Turn tool outcomes into what the vendor expects in the next request. */
  toToolResults(outcomes: readonly ToolCallOutcome[]): TToolResults;
  /**
   * Answer an MCP `sampling/createMessage` request with this vendor's model. Optional: a host
   * whose adapter has no `createMessage` declines sampling.
   */
  createMessage?(request: SamplingRequest, options: { readonly signal?: AbortSignal }): Promise<SamplingResponse>;
}
