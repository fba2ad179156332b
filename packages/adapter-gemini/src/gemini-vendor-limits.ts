import type { VendorLimits } from '@toolhost/contract';

/**
 * Gemini's hard limits on the tools of one request, the defaults of {@link createGeminiAdapter}'s
 * `limits`:
 *
 * - `maxTools: 512`: the API answers more with `400 INVALID_ARGUMENT: tools[0].function_declarations:
 *   [FIELD_INVALID] At most 512 function declarations can be specified` (Gemini CLI issue 19083),
 *   and `@google/genai` 1.52 documents `Tool.functionDeclarations` with "Maximum 512 function
 *   declarations can be provided". (Older Vertex AI SDK references said 64.)
 *
 * Gemini also rejects a declaration whose schema "exceeds the maximum allowed nesting depth" or
 * "produces a constraint that has too many states for serving", but documents no number for
 * either, so neither is checked here; set `limits: { maxSchemaDepth }` if you know your model's.
 * No limit on description length is documented. Tool names are limited by
 * {@link GEMINI_TOOL_NAME_POLICY}. Gemini has no native tool search (no `defer_loading`; asked for
 * in googleapis/js-genai issue 1416), so the host's own tool search is the way to defer.
 */
export const GEMINI_VENDOR_LIMITS: VendorLimits = Object.freeze({ maxTools: 512 });
