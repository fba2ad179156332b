/**
 * The names a model vendor accepts for tools. The host assigns every MCP tool one name that
 * satisfies the adapter's policy, once, when tools are registered; adapters then use the names
 * they are given as they are, and map nothing back.
 */
export interface ToolNamePolicy {
  /** The longest name the vendor accepts. */
  readonly maxLength: number;
  /**
   * Turn any string into one whose characters the vendor accepts (length is the host's job).
   * Must be idempotent: a name it returns unchanged counts as valid.
   */
  normalize(name: string): string;
}

/**
 * Gemini CLI's rule, and the host's default: characters outside `a-z A-Z 0-9 _ . -` become
 * `_`; at most 63 characters. Accepted by Gemini; OpenAI and Anthropic reject the dot.
 */
export const DEFAULT_TOOL_NAME_POLICY: ToolNamePolicy = {
  maxLength: 63,
  normalize: (name) => name.replace(/[^a-zA-Z0-9_.-]/g, '_'),
};
