import type { ConfigError } from './config-error.js';
import type { ConfigWarning } from './config-warning.js';
import { FORBIDDEN_KEYS, nodeToValue, parseJsoncDocument } from './read-jsonc.js';
import { readTextFile } from './read-text-file.js';
import { normalizeServerName } from './server-access-policy.js';

/** Servers the user turned off, read from `~/<appDir>/mcp-server-enablement.json`. */
export interface ServerEnablement {
  /** Normalized names (see `normalizeServerName`) of the disabled servers. */
  readonly disabled: ReadonlySet<string>;
  /** A malformed or unreadable file; every server then counts as enabled. */
  readonly errors: readonly ConfigError[];
  /** Ignored keys and similar. */
  readonly warnings: readonly ConfigWarning[];
}

/**
 * Reads the enablement file (`{ "<name>": { "enabled": false } }`, the format of Gemini CLI).
 * A missing file means every server is enabled.
 */
export async function readServerEnablement(filePath: string): Promise<ServerEnablement> {
  const disabled = new Set<string>();
  const warnings: ConfigWarning[] = [];
  try {
    const text = await readTextFile(filePath);
    if (text === undefined) return { disabled, errors: [], warnings };
    const root = parseJsoncDocument(text, filePath).root;
    if (root?.type !== 'object') return { disabled, errors: [], warnings };
    for (const property of root.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (keyNode === undefined || valueNode === undefined || FORBIDDEN_KEYS.has(String(keyNode.value))) continue;
      const value = nodeToValue(valueNode, [String(keyNode.value)], { filePath, warnings });
      const enabled = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['enabled'] : undefined;
      if (enabled === false) disabled.add(normalizeServerName(String(keyNode.value)));
      else disabled.delete(normalizeServerName(String(keyNode.value)));
    }
    return { disabled, errors: [], warnings };
  } catch (error) {
    return { disabled, errors: [error as ConfigError], warnings };
  }
}
