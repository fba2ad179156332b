import type { HostToolDefinition, JsonSchemaObject } from '@toolhost/contract';
import { sanitizeSchema } from '@toolhost/schema-sanitizer';

/** Options of the OpenAI tool mappers. */
export interface OpenAIToolOptions {
  /** Declare the tool with `strict: true` and a schema from the `openai-strict` profile. */
  strict: boolean;
}

/** The `parameters` and `strict` fields of an OpenAI function tool. */
export interface FunctionParametersResult {
  /** The schema to send as `parameters`. */
  parameters: JsonSchemaObject;
  /** The value to send as `strict`. */
  strict: boolean;
}

/**
 * Build an OpenAI function's `parameters`: with `strict`, the schema goes through the
 * `openai-strict` profile (every property required, optional ones nullable,
 * `additionalProperties: false`); without it, through profile `none`.
 */
export function buildFunctionParameters(tool: HostToolDefinition, strict: boolean): FunctionParametersResult {
  const parameters = sanitizeSchema(tool.inputSchema, { profile: strict ? 'openai-strict' : 'none' }) as JsonSchemaObject;
  return { parameters, strict };
}
