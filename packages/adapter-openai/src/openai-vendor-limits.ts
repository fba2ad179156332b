import type { VendorLimits } from '@toolhost/contract';

/**
 * OpenAI's hard limits on the tools of one request, in Chat Completions and the Responses API
 * alike, the defaults of the OpenAI adapters' `limits`:
 *
 * - `maxTools: 128`: the API answers more with `400 Invalid 'tools': array too long. Expected an
 *   array with maximum length 128` (`array_above_max_length`); the Chat Completions reference says
 *   of `tools`: "A max of 128 functions are supported". With native tool search (Responses API)
 *   the entries of the `tools` array are what count: loaded functions, one namespace per server of
 *   deferred functions, and the `tool_search` tool.
 *
 * Descriptions: OpenAI rejected function descriptions over 1,024 characters
 * (`string_above_max_length`) until about May 2025 and accepts longer ones since (tested against
 * gpt-4.1-mini and gpt-5 by llama_index PR 18784 and OpenHands PR 10184), so no default is set;
 * some OpenAI-compatible servers and Azure deployments still reject them: set
 * `limits: { maxDescriptionLength: 1024 }` there. Tool names are limited by
 * {@link OPENAI_TOOL_NAME_POLICY}. In strict mode, {@link OPENAI_STRICT_SCHEMA_LIMITS} apply too.
 */
export const OPENAI_VENDOR_LIMITS: VendorLimits = Object.freeze({ maxTools: 128 });

/**
 * The limits of OpenAI's strict mode (Structured Outputs, "Supported schemas"), which apply to
 * each function declared with `strict: true` (the OpenAI adapters' default): "A schema may have up
 * to 5000 object properties total, with up to 10 levels of nesting"; "In total, string length of
 * all property names, definition names, enum values, and const values cannot exceed 120,000
 * characters"; "A schema may have up to 1000 enum values across all enum properties". (A further
 * rule, at most 15,000 characters in one string enum of more than 250 values, is not checked.)
 * With `strict: false` they do not apply.
 */
export const OPENAI_STRICT_SCHEMA_LIMITS: VendorLimits = Object.freeze({
  maxSchemaDepth: 10,
  maxSchemaProperties: 5000,
  maxSchemaEnumValues: 1000,
  maxSchemaStringLength: 120_000,
});
