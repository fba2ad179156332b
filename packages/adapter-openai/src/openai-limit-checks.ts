import {
  resolveContextWindowTokens,
  resolveVendorLimits,
  vendorLimitChecks,
  type VendorLimitChecks,
  type VendorLimits,
} from '@toolhost/contract';
import { OPENAI_TOOL_NAME_POLICY } from './openai-tool-name-policy.js';
import { OPENAI_STRICT_SCHEMA_LIMITS, OPENAI_VENDOR_LIMITS } from './openai-vendor-limits.js';

/** What the OpenAI adapters need from their options to check limits. */
export interface OpenAILimitOptions {
  /** Strict mode, whose schema limits then apply. */
  readonly strict: boolean;
  /** The `limits` option. */
  readonly limits?: VendorLimits | undefined;
  /** The `contextWindowTokens` option. */
  readonly contextWindowTokens?: number | undefined;
  /** True when deferred tools go to OpenAI's own tool search. */
  readonly nativeToolSearch: boolean;
}

/** The limits, context window and limit checks of one OpenAI adapter. */
export interface OpenAILimitSetup {
  /** The limits checked: OpenAI's (and strict mode's), with the `limits` option on top. */
  readonly limits: VendorLimits;
  /** The `contextWindowTokens` option, checked. */
  readonly contextWindowTokens: number | undefined;
  /** The checks `toTools` makes. */
  readonly checks: VendorLimitChecks;
}

/**
 * Resolve an OpenAI adapter's limits from its options and build its checks.
 *
 * @throws AdapterError `INVALID_OPTIONS` for a limit or context window that is not a positive integer.
 */
export function openAILimitSetup(options: OpenAILimitOptions): OpenAILimitSetup {
  const defaults = options.strict ? { ...OPENAI_VENDOR_LIMITS, ...OPENAI_STRICT_SCHEMA_LIMITS } : OPENAI_VENDOR_LIMITS;
  const limits = resolveVendorLimits('openai', defaults, options.limits);
  const contextWindowTokens = resolveContextWindowTokens('openai', options.contextWindowTokens);
  const checks = vendorLimitChecks({
    provider: 'openai',
    vendor: 'OpenAI',
    limits,
    toolNames: OPENAI_TOOL_NAME_POLICY,
    nativeToolSearch: options.nativeToolSearch,
    schemaAdvice: options.strict
      ? "OpenAI's strict-mode limits on a schema's depth, properties and enum values do not apply to an adapter created with strict: false"
      : undefined,
  });
  return { limits, contextWindowTokens, checks };
}
