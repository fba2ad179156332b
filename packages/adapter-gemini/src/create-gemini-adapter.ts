import type { Content, FunctionDeclaration, GenerateContentResponse } from '@google/genai';
import type { ModelAdapter } from '@toolhost/host';
import { createToolNameMap, type ToolNameMap, type ToolNameMapOptions } from '@toolhost/schema-sanitizer';
import { createGeminiMessage, type GeminiSamplingOptions } from './create-gemini-message.js';
import { mapOutcomesToContent, type GeminiMediaPlacement } from './map-outcomes-to-content.js';
import { mapResponseToToolCalls } from './map-response-to-tool-calls.js';
import { mapToolsToFunctionDeclarations, type GeminiSchemaField } from './map-tools-to-function-declarations.js';

/** Options of {@link createGeminiAdapter}. Every field is optional. */
export interface GeminiAdapterOptions {
  /**
   * `parameters` (OpenAPI subset, sanitizer profile `gemini`, what Gemini CLI documents) or
   * `parametersJsonSchema` (raw JSON Schema with `$ref`, profile `gemini-json-schema`, what
   * Gemini CLI does today).
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
}

/** The Gemini `ModelAdapter`: function declarations in, `functionCall` parts out, a `Content` turn back. */
export type GeminiAdapter = ModelAdapter<FunctionDeclaration, GenerateContentResponse | Content, Content>;

/**
 * Create the adapter that lets McpToolHost work with `@google/genai`.
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
  const { sampling } = options;
  const nameOptions: ToolNameMapOptions = { normalize: toGeminiName, maxLength: 64 };
  let names: ToolNameMap = createToolNameMap([], nameOptions);
  const adapter: GeminiAdapter = {
    specificationVersion: 'v1',
    provider: 'gemini',
    schemaProfile: schemaField === 'parameters' ? 'gemini' : 'gemini-json-schema',
    toTools(tools) {
      names = createToolNameMap(tools.map((tool) => tool.name), nameOptions);
      const declared = tools.map((tool, index) => ({ ...tool, name: names.vendorNames[index] ?? tool.name }));
      return mapToolsToFunctionDeclarations(declared, { schemaField });
    },
    getToolCalls: (response) => mapResponseToToolCalls(response).map((call) => ({ ...call, name: names.toHost(call.name) })),
    toToolResults(outcomes) {
      // The functionResponse must carry the name the model called, not the host's name.
      const answered = outcomes.map((outcome) => ({ ...outcome, call: { ...outcome.call, name: names.toVendor(outcome.call.name) } }));
      return mapOutcomesToContent(answered, {
        mediaPlacement: options.mediaPlacement ?? 'parts',
        includeStructuredContent: options.includeStructuredContent ?? false,
      });
    },
  };
  if (sampling) {
    adapter.createMessage = (request, callOptions) => createGeminiMessage(request, { sampling, signal: callOptions.signal });
  }
  return adapter;
}

/**
 * Gemini function names must start with a letter or an underscore and use only
 * `a-z A-Z 0-9 _ . : -` (64 characters at most).
 */
function toGeminiName(name: string): string {
  const valid = name.replace(/[^a-zA-Z0-9_.:-]/g, '_');
  return /^[a-zA-Z_]/.test(valid) ? valid : `_${valid}`;
}
