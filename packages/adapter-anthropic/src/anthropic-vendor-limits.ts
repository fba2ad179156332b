import type { VendorLimits } from '@toolhost/contract';

/**
 * Anthropic's hard limits on the tools of one Messages request, the defaults of
 * {@link createAnthropicAdapter}'s `limits`:
 *
 * - `maxDeferredTools: 10_000`: the tool search tool works over "up to 10,000 tools" marked
 *   `defer_loading` (platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool, limits).
 * - `maxToolsBytes: 32_000_000`: "The API has a maximum request size of 32 MB for standard
 *   endpoints, including the Messages API"; larger requests get `413 request_too_large` from
 *   Cloudflare (docs.anthropic.com/en/api/overview, request size limits). Tool declarations alone
 *   can never be larger, so the adapter refuses them before the request is sent.
 *
 * Anthropic documents no limit on the number of loaded tools (the API has an
 * `available_tools_limit_exceeded` error, "the tools available after a message exceed a limit on
 * their number or their size", without a number) and none on description length. Tool names are
 * limited by {@link ANTHROPIC_TOOL_NAME_POLICY}.
 */
export const ANTHROPIC_VENDOR_LIMITS: VendorLimits = Object.freeze({
  maxDeferredTools: 10_000,
  maxToolsBytes: 32_000_000,
});
