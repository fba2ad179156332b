import type { Content, FunctionDeclaration, GenerateContentResponse } from '@google/genai';
import {
  resolveContextWindowTokens,
  resolveVendorLimits,
  vendorLimitChecks,
  type ModelAdapter,
  type StreamingModelAdapter,
  type VendorLimits,
} from '@toolhost/contract';
import { collectGeminiStream, createGeminiStreamAccumulator } from './gemini-stream-accumulator.js';
import { createGeminiMessage, type GeminiSamplingOptions } from './create-gemini-message.js';
import { GEMINI_TOOL_NAME_POLICY } from './gemini-tool-name-policy.js';
import { GEMINI_VENDOR_LIMITS } from './gemini-vendor-limits.js';
import { mapOutcomesToContent, type GeminiMediaPlacement } from './map-outcomes-to-content.js';
import { mapResponseToToolCalls } from './map-response-to-tool-calls.js';
import { mapToolsToFunctionDeclarations, type GeminiSchemaField } from './map-tools-to-function-declarations.js';

/** Options of {@link createGeminiAdapter}. Every field is optional. */
export interface GeminiAdapterOptions {
  /**
   * `parameters` (Gemini's OpenAPI-style `Schema`: sanitizer profile `gemini` with
   * `geminiSchemaFieldsOnly`, so only fields, types, formats and enums the API accepts there) or
   * `parametersJsonSchema` (JSON Schema with `$ref`, profile `gemini-json-schema`, what Gemini
   * CLI sends today).
   * @default 'parameters'
   */
  schemaField?: GeminiSchemaField;
  /**
   * Where images, audio and blobs of a tool result go: separate `inlineData` parts after the
   * `functionResponse` part, or inside `functionResponse.parts`.
   * @default 'parts'
   */
  mediaPlacement?: GeminiMediaPlacement;
  /**
   * Send a tool's `structuredContent` to the model in `functionResponse.response`.
   * @default false
   */
  includeStructuredContent?: boolean;
  /** Answer MCP sampling requests with this client and model; without it the host declines sampling. */
  sampling?: GeminiSamplingOptions;
  /**
   * Limits to check instead of {@link GEMINI_VENDOR_LIMITS}, field by field (Vertex AI or a
   * gateway may have others); a field set to `undefined` lifts that limit.
   */
  limits?: VendorLimits;
  /** The context window of the Gemini model you use, in tokens; surfaced as `adapter.contextWindowTokens` for the host's tool search. */
  contextWindowTokens?: number;
}

/**
 * The Gemini `ModelAdapter`: function declarations in, `functionCall` parts out, a `Content` turn
 * back; and `generateContentStream` chunks assembled into one `GenerateContentResponse`.
 */
export type GeminiAdapter = ModelAdapter<FunctionDeclaration, GenerateContentResponse | Content, Content> &
  StreamingModelAdapter<GenerateContentResponse, GenerateContentResponse>;

/**
 * Create the adapter that lets McpToolHost work with `@google/genai`.
 *
 * The adapter is stateless: it keeps nothing between `toTools`, `getToolCalls` and
 * `toToolResults`, so one instance can serve any number of hosts. Tool names are used as given
 * (the host names every tool under {@link GEMINI_TOOL_NAME_POLICY}, the adapter's `toolNames`),
 * and the names in the model's `functionCall` parts are returned as they are. `collectStream`
 * reads a `generateContentStream` into the response `getToolCalls` takes (see
 * {@link createGeminiStreamAccumulator}).
 *
 * `toTools` never returns declarations Gemini rejects for its limits ({@link GEMINI_VENDOR_LIMITS},
 * `adapter.limits`: at most 512 function declarations): over one it throws `AdapterError`
 * `VENDOR_LIMIT_EXCEEDED`. Gemini has no native tool search, so deferred tools are refused.
 *
 * @example
 * ```ts
 * const adapter = createGeminiAdapter();
 * const host = await McpToolHost.create({ adapter, ui });
 * const response = await ai.models.generateContent({
 *   model, contents, config: { tools: [{ functionDeclarations: host.listTools() }] },
 * });
 * ```
 */
export function createGeminiAdapter(options: GeminiAdapterOptions = {}): GeminiAdapter {
  const schemaField = options.schemaField ?? 'parameters';
  const resultOptions = {
    mediaPlacement: options.mediaPlacement ?? 'parts',
    includeStructuredContent: options.includeStructuredContent ?? false,
  } as const;
  const { sampling } = options;
  const limits = resolveVendorLimits('gemini', GEMINI_VENDOR_LIMITS, options.limits);
  const contextWindowTokens = resolveContextWindowTokens('gemini', options.contextWindowTokens);
  const checks = vendorLimitChecks({
    provider: 'gemini',
    vendor: 'Gemini',
    limits,
    toolNames: GEMINI_TOOL_NAME_POLICY,
    nativeToolSearch: false,
  });
  const adapter: GeminiAdapter = {
    specificationVersion: 'v1',
    provider: 'gemini',
    schemaProfile: schemaField === 'parameters' ? 'gemini' : 'gemini-json-schema',
    toolNames: GEMINI_TOOL_NAME_POLICY,
    limits,
    nativeToolSearch: false,
    ...(contextWindowTokens !== undefined ? { contextWindowTokens } : {}),
    toTools(tools) {
      const declared = mapToolsToFunctionDeclarations(checks.prepareTools(tools), { schemaField });
      checks.checkToolCount(declared.length);
      checks.checkDeclarations(
        declared.map((declaration) => ({
          name: declaration.name ?? '',
          declaration,
          schema: schemaField === 'parameters' ? declaration.parameters : declaration.parametersJsonSchema,
        })),
      );
      return declared;
    },
    getToolCalls: (response) => mapResponseToToolCalls(response),
    toToolResults: (outcomes) => mapOutcomesToContent(outcomes, resultOptions),
    createStreamAccumulator: (streamOptions) => createGeminiStreamAccumulator(streamOptions),
    collectStream: (stream, streamOptions) => collectGeminiStream(stream, streamOptions),
  };
  if (sampling) {
    adapter.createMessage = (request, callOptions) => createGeminiMessage(request, { sampling, signal: callOptions.signal });
  }
  return adapter;
}
