// Public API of @toolhost/contract/limits: a model vendor's hard limits on one request's tools
// (`ModelAdapter.limits`) and the checks an adapter makes against them in `toTools`. A subpath, so
// that the root stays small: adapter authors name these, applications set `limits` as an adapter
// option without naming them.
export { VENDOR_LIMIT_NAMES, resolveContextWindowTokens, resolveVendorLimits } from './vendor-limits.js';
export type { VendorLimits } from './vendor-limits.js';
export { vendorLimitChecks } from './vendor-limit-checks.js';
export type { ToolDeclarationCheck, VendorLimitChecks, VendorLimitChecksOptions } from './vendor-limit-checks.js';
