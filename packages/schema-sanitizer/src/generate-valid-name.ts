import { DEFAULT_TOOL_NAME_POLICY, type ToolNamePolicy } from '@toolhost/contract';

/** Longest tool name under the default policy (Gemini CLI's limit). */
export const MAX_TOOL_NAME_LENGTH = DEFAULT_TOOL_NAME_POLICY.maxLength;

/**
 * Turn any MCP tool name into one the model vendor accepts under `policy`: its characters are
 * normalised, and a name longer than the limit keeps its first 28 characters and as many of its
 * last as fit around `___`. With the default policy this is Gemini CLI's rule: characters outside
 * `a-z A-Z 0-9 _ . -` become `_`, and a long name keeps its first 28 and last 32 characters.
 *
 * @example
 * generateValidName('my tool/v2'); // 'my_tool_v2'
 */
export function generateValidName(name: string, policy: ToolNamePolicy = DEFAULT_TOOL_NAME_POLICY): string {
  const valid = policy.normalize(name);
  const { maxLength } = policy;
  if (valid.length <= maxLength) return valid;
  const head = Math.min(28, Math.floor((maxLength - 3) / 2));
  return policy.normalize(`${valid.slice(0, head)}___${valid.slice(valid.length - (maxLength - 3 - head))}`);
}
