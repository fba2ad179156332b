import { AdapterError } from './adapter-error.js';

/**
 * A model vendor's hard limits on the tool declarations of one request: what the vendor's API
 * rejects outright (HTTP 400), not what merely degrades the model. Every field is optional; an
 * absent field means the vendor documents no such limit. The shipped adapters' constants
 * (`OPENAI_VENDOR_LIMITS`, `ANTHROPIC_VENDOR_LIMITS`, `GEMINI_VENDOR_LIMITS`) cite the vendor's
 * documentation or error message for each value they set. Tool names are limited by the
 * adapter's `toolNames` policy (`maxLength`, `normalize`), not here.
 *
 * Characters are counted as JavaScript string length (UTF-16 code units), which is never less
 * than the Unicode characters a vendor counts, so a text within a limit here is within the
 * vendor's too. Bytes are those of the compact JSON text in UTF-8.
 */
export interface VendorLimits {
  /** Most tool declarations one request may hold, counted as entries of the request's tool list. */
  readonly maxTools?: number | undefined;
  /** Most deferred tools (declared for the vendor's native tool search) one request may hold. */
  readonly maxDeferredTools?: number | undefined;
  /** Longest tool description, in characters; the adapter shortens a longer one, with a marker. */
  readonly maxDescriptionLength?: number | undefined;
  /** Largest input schema of one tool as the adapter declares it, in bytes of JSON. */
  readonly maxSchemaBytes?: number | undefined;
  /** Largest sum of all tool declarations of one request, in bytes of JSON. */
  readonly maxToolsBytes?: number | undefined;
  /**
   * Deepest nesting of object schemas in one tool's input schema: the root object is level 1,
   * each object schema under a property, array items or a composition one level more (arrays and
   * other schemas add none).
   */
  readonly maxSchemaDepth?: number | undefined;
  /** Most object properties in one tool's input schema, counted over every `properties` of it. */
  readonly maxSchemaProperties?: number | undefined;
  /** Most `enum` values in one tool's input schema, counted over every `enum` of it. */
  readonly maxSchemaEnumValues?: number | undefined;
  /**
   * Most characters of property names, definition names (`$defs`, `definitions`), string `enum`
   * values and string `const` values in one tool's input schema, all together.
   */
  readonly maxSchemaStringLength?: number | undefined;
}

/** The names of the {@link VendorLimits} fields, in the order they are documented. */
export const VENDOR_LIMIT_NAMES = [
  'maxTools',
  'maxDeferredTools',
  'maxDescriptionLength',
  'maxSchemaBytes',
  'maxToolsBytes',
  'maxSchemaDepth',
  'maxSchemaProperties',
  'maxSchemaEnumValues',
  'maxSchemaStringLength',
] as const satisfies ReadonlyArray<keyof VendorLimits>;

/**
 * An adapter's limits: the vendor's `defaults` with the application's `overrides` on top (a field
 * set to a number replaces the default, a field set to `undefined` lifts it), frozen. Use it in an
 * adapter factory for a `limits` option, so a gateway or an OpenAI-compatible server with other
 * limits can be described.
 *
 * @throws AdapterError `INVALID_OPTIONS` when an override is not a positive integer (or `undefined`).
 *
 * @example
 * ```ts
 * const limits = resolveVendorLimits('openai', { maxTools: 128 }, { maxDescriptionLength: 1024 });
 * limits.maxTools; // 128
 * ```
 */
export function resolveVendorLimits(provider: string, defaults: VendorLimits, overrides?: VendorLimits): VendorLimits {
  const limits: Record<string, number | undefined> = {};
  for (const name of VENDOR_LIMIT_NAMES) {
    const override = overrides !== undefined && Object.prototype.hasOwnProperty.call(overrides, name);
    const value = override ? overrides[name] : defaults[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new AdapterError({
        code: 'INVALID_OPTIONS',
        message: `limits.${name} must be a positive integer (or undefined to lift the limit); got ${String(value)}.`,
        provider,
      });
    }
    limits[name] = value;
  }
  return Object.freeze(limits) as VendorLimits;
}

/**
 * The `contextWindowTokens` adapter option, checked: `undefined` or a positive integer.
 *
 * @throws AdapterError `INVALID_OPTIONS` otherwise.
 */
export function resolveContextWindowTokens(provider: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new AdapterError({
      code: 'INVALID_OPTIONS',
      message: `contextWindowTokens must be a positive integer (the model's context window in tokens); got ${String(value)}.`,
      provider,
    });
  }
  return value;
}
