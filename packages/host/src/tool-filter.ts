import type { HostToolDefinition } from '@toolhost/contract';

/**
 * Which tools one model request offers: every field given must match (servers AND names AND
 * annotations). A function decides on its own.
 *
 * - `servers`: the tool's server is one of these.
 * - `names`: the tool's model-facing name (`name`) or its name on the server (`originalName`) is one of these.
 * - `annotations`: every listed MCP annotation has this value; a tool that does not set one gets
 *   the MCP default (`readOnlyHint: false`, `destructiveHint: true`, `idempotentHint: false`,
 *   `openWorldHint: true`). Annotations are the server's untrusted hints.
 *
 * @example
 * ```ts
 * const filter = { annotations: { readOnlyHint: true } };
 * const tools = host.listTools({ filter });
 * await host.handleModelResponse(response, { filter }); // a call to any other tool is refused
 * ```
 */
export type ToolFilter =
  | {
      readonly servers?: readonly string[];
      readonly names?: readonly string[];
      readonly annotations?: Readonly<Record<string, unknown>>;
    }
  | ((tool: HostToolDefinition) => boolean);

/** The MCP defaults of the boolean tool annotations, used when a tool does not set one. */
const ANNOTATION_DEFAULTS: Readonly<Record<string, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

/** Whether a tool passes a {@link ToolFilter} (always, without one). */
export function matchesToolFilter(tool: HostToolDefinition, filter: ToolFilter | undefined): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'function') return filter(tool);
  if (filter.servers && !filter.servers.includes(tool.serverName)) return false;
  if (filter.names && !filter.names.includes(tool.name) && !filter.names.includes(tool.originalName)) return false;
  if (filter.annotations) {
    for (const [key, wanted] of Object.entries(filter.annotations)) {
      const actual = tool.annotations?.[key] ?? ANNOTATION_DEFAULTS[key];
      if (actual !== wanted) return false;
    }
  }
  return true;
}
