import type { ToolNamePolicy } from '@toolhost/contract';

/**
 * The tool names Anthropic accepts: only `a-z A-Z 0-9 _ -`, 1 to 64 characters
 * (`^[a-zA-Z0-9_-]{1,64}$`; no dots, unlike the host's default names). A tool's own name may be up
 * to 128 characters today (`tools.N.custom.name: String should match pattern
 * '^[a-zA-Z0-9_-]{1,128}$'`), but a `tool_reference` the tool search tool returns names it in at
 * most 64 (`tool_reference.tool_name: String should have at most 64 characters`), so a longer name
 * breaks tool search; 64 is the limit that holds for every tool. `normalize` turns every
 * other character into `_` (and an empty name into `_`); it is idempotent. The host names every
 * tool under this policy once, when it registers tools; the Anthropic adapter then declares the
 * names it is given and maps nothing back. It is the `toolNames` of every adapter
 * {@link createAnthropicAdapter} returns.
 *
 * @example
 * ```ts
 * ANTHROPIC_TOOL_NAME_POLICY.normalize('files.read'); // 'files_read'
 * ```
 */
export const ANTHROPIC_TOOL_NAME_POLICY: ToolNamePolicy = Object.freeze({
  maxLength: 64,
  normalize: (name: string): string => name.replace(/[^a-zA-Z0-9_-]/g, '_') || '_',
});
