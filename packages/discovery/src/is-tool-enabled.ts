/** The tool filter of a server entry. */
export interface ToolFilter {
  /**
   * Only these tools are registered (`name`, or `name(...)` which matches `name`).
   * Absent means every tool; an empty list (for instance an empty intersection of merged
   * settings) allows no tool.
   */
  includeTools?: readonly string[] | undefined;
  /** These tools are never registered; wins over `includeTools`. Exact match. */
  excludeTools?: readonly string[] | undefined;
}

/**
 * Whether a server's tool passes its entry's `includeTools` / `excludeTools`.
 * Matching is exact and case-sensitive; exclude wins; a tool without a name is never enabled.
 *
 * @example
 * isToolEnabled('run_shell', { includeTools: ['run_shell(ls)'] }); // true
 */
export function isToolEnabled(toolName: string, filter: ToolFilter): boolean {
  if (!toolName) return false;
  if (filter.excludeTools?.includes(toolName)) return false;
  const include = filter.includeTools;
  if (include === undefined) return true;
  return include.some((entry) => entry === toolName || entry.startsWith(`${toolName}(`));
}
