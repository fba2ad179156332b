import { DEFAULT_TOOL_NAME_POLICY, type ToolNamePolicy } from '@toolhost/contract';
import { generateValidName } from './generate-valid-name.js';
import { shortHash } from './short-hash.js';

/** One tool (or prompt) offered by one server, as input to {@link assignToolNames}. */
export interface ToolNameEntry {
  /** The server's name as configured in `mcpServers`. */
  readonly serverName: string;
  /** The tool's own name on that server (used for `tools/call`). */
  readonly toolName: string;
}

/** How a registered name was formed. */
export type ToolNameKind =
  /** The sanitised tool name alone (the first server to offer it). */
  | 'bare'
  /** `serverName__toolName`, sanitised (a later server offering the same name). */
  | 'qualified'
  /** The qualified name, shortened if needed, with `_` and a stable hash of server and tool appended. */
  | 'hashed';

/** The name one tool is registered under. */
export interface AssignedToolName {
  /** The model-facing name: unique, and valid under the naming policy. */
  readonly registeredName: string;
  /** The server that offers the tool. */
  readonly serverName: string;
  /** The tool's original name on its server. */
  readonly toolName: string;
  /** How the name was formed. */
  readonly kind: ToolNameKind;
}

/** The result of {@link assignToolNames}. */
export interface ToolNameAssignment {
  /** One entry per input entry, in input order. */
  readonly names: readonly AssignedToolName[];
  /** Registered name → server and original name. */
  readonly byRegisteredName: ReadonlyMap<string, AssignedToolName>;
}

/** Options of {@link assignToolNames}. */
export interface AssignToolNamesOptions {
  /** Names already taken by the host (built-in tools); MCP tools never get these. */
  readonly reservedNames?: Iterable<string>;
  /**
   * The names the model vendor accepts (the adapter's `toolNames`).
   * @default DEFAULT_TOOL_NAME_POLICY (Gemini CLI's rule: `a-z A-Z 0-9 _ . -`, 63 characters)
   */
  readonly policy?: ToolNamePolicy;
}

function withSuffix(base: string, suffix: string, maxLength: number): string {
  return `${base.slice(0, maxLength - suffix.length)}${suffix}`;
}

/**
 * Give every tool a unique model-facing name, valid under the vendor's naming `policy`, once
 * and deterministically: entries are taken in the order given (settings order, then each
 * server's own order), never in the order servers answered. The first entry to offer a
 * (sanitised) name keeps the bare name; later ones get the sanitised `serverName__toolName`; if
 * that is taken too (sanitising or truncating made two names equal, or the same tool is listed
 * twice), `_` plus a 7-character FNV-1a hash of server and tool is appended within the length
 * limit (and `_2`, `_3`... in the astronomically rare case the hash collides as well). No tool is
 * ever dropped or overwritten. Also used for prompt names.
 *
 * @example
 * assignToolNames([{ serverName: 'a', toolName: 'search' }, { serverName: 'b', toolName: 'search' }]).names
 *   .map((n) => n.registeredName); // ['search', 'b__search']
 */
export function assignToolNames(entries: readonly ToolNameEntry[], options: AssignToolNamesOptions = {}): ToolNameAssignment {
  const policy = options.policy ?? DEFAULT_TOOL_NAME_POLICY;
  const taken = new Set<string>(options.reservedNames ?? []);
  const names: AssignedToolName[] = [];
  const byRegisteredName = new Map<string, AssignedToolName>();
  for (const { serverName, toolName } of entries) {
    const bare = generateValidName(toolName, policy);
    const qualified = generateValidName(`${serverName}__${toolName}`, policy);
    let registeredName: string;
    let kind: ToolNameKind;
    if (bare !== '' && !taken.has(bare)) {
      registeredName = bare;
      kind = 'bare';
    } else if (!taken.has(qualified)) {
      registeredName = qualified;
      kind = 'qualified';
    } else {
      const suffix = `_${shortHash(`${serverName}\u0000${toolName}`)}`;
      registeredName = withSuffix(qualified, suffix, policy.maxLength);
      for (let counter = 2; taken.has(registeredName); counter++)
        registeredName = withSuffix(qualified, `${suffix}_${counter}`, policy.maxLength);
      kind = 'hashed';
    }
    taken.add(registeredName);
    const assigned: AssignedToolName = { registeredName, serverName, toolName, kind };
    names.push(assigned);
    byRegisteredName.set(registeredName, assigned);
  }
  return { names, byRegisteredName };
}
