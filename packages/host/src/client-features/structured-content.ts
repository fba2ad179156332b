import type { SchemaValidatorFactory } from '@toolhost/connection';
import { LinearTimeJsonSchemaValidator } from '@toolhost/confirmation';

/** How a result's structured content relates to the tool's `outputSchema`. */
export type StructuredContentStatus =
  /** The tool declares no output schema and sent no structured content. */
  | 'none'
  /** `structuredContent` is present and matches the schema (or there is no schema to check). */
  | 'valid'
  /** `structuredContent` is missing, and the text content parsed as a JSON object took its place. */
  | 'recovered-from-text'
  /** `structuredContent` does not match the schema; it is still passed on, with `errorMessage`. */
  | 'invalid'
  /** The tool has a schema but sent neither structured content nor JSON text. */
  | 'missing'
  /** The schema could not be compiled, so nothing was checked. */
  | 'unchecked'
  /** The result is an error result; structured content is not expected. */
  | 'error-result';

/** The outcome of {@link checkStructuredContent}. */
export interface StructuredContentCheck {
  /** What was found. */
  readonly status: StructuredContentStatus;
  /** The structured content to use (the server's, or recovered from text): any JSON value. */
  readonly structuredContent?: unknown;
  /** Why validation failed, for `invalid` and `unchecked`. */
  readonly errorMessage?: string;
}

/** Options of {@link checkStructuredContent}. */
export interface CheckStructuredContentOptions {
  /** The `tools/call` result. */
  readonly result: {
    readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: unknown }>;
    /** Any JSON value on 2026-07-28; an object on earlier revisions. */
    readonly structuredContent?: unknown;
    readonly isError?: boolean;
  };
  /** The tool's `outputSchema`, when it declares one. */
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  /**
   * JSON Schema validator. @default Ajv with server-supplied patterns matched in linear time by
   * RE2 (`LinearTimeJsonSchemaValidator` of `@toolhost/confirmation`); a schema with a pattern RE2
   * cannot run (backreference, lookaround) is `unchecked`
   */
  readonly validator?: SchemaValidatorFactory;
}

/** One compiled check of a value against a schema. */
type SchemaCheck = ReturnType<SchemaValidatorFactory['getValidator']>;

const defaultValidator: SchemaValidatorFactory = new LinearTimeJsonSchemaValidator();
const compiled = new WeakMap<object, SchemaCheck>();

function jsonFromText(result: CheckStructuredContentOptions['result']): Record<string, unknown> | undefined {
  const text = (result.content ?? [])
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('');
  if (!text.trim().startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lenient `structuredContent` / `outputSchema` handling: never throws and never drops the result.
 * A server that returns JSON only in text still works (`recovered-from-text`); content that does
 * not match the schema is passed on with `status: 'invalid'` instead of failing the call (the SDK's
 * `callTool` would throw -32600, the failure of gemini-cli#21053).
 */
export function checkStructuredContent(options: CheckStructuredContentOptions): StructuredContentCheck {
  const { result, outputSchema } = options;
  if (result.isError) return { status: 'error-result' };
  let structuredContent: unknown = result.structuredContent;
  let status: StructuredContentStatus = 'valid';
  if (structuredContent === undefined) {
    if (!outputSchema) return { status: 'none' };
    structuredContent = jsonFromText(result);
    if (structuredContent === undefined) return { status: 'missing' };
    status = 'recovered-from-text';
  }
  if (!outputSchema) return { status, structuredContent };
  let validate = options.validator ? undefined : compiled.get(outputSchema);
  try {
    if (!validate) {
      validate = (options.validator ?? defaultValidator).getValidator<unknown>(outputSchema);
      if (!options.validator) compiled.set(outputSchema, validate);
    }
  } catch (error) {
    return { status: 'unchecked', structuredContent, errorMessage: error instanceof Error ? error.message : String(error) };
  }
  let outcome: ReturnType<SchemaCheck>;
  try {
    outcome = validate(structuredContent);
  } catch (error) {
    // A recursive schema over deeply nested content can run a validator out of stack.
    return { status: 'unchecked', structuredContent, errorMessage: error instanceof Error ? error.message : String(error) };
  }
  if (outcome.valid) return { status, structuredContent };
  if (status === 'recovered-from-text') return { status: 'missing' };
  return { status: 'invalid', structuredContent, errorMessage: outcome.errorMessage };
}
