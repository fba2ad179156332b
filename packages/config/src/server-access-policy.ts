/**
 * The one rule for comparing server names in `mcp.allowed`, `mcp.excluded` and the enablement
 * file: surrounding whitespace is ignored and letter case does not matter.
 *
 * @example normalizeServerName('  GitHub ') // 'github'
 */
export function normalizeServerName(name: string): string {
  return name.trim().toLowerCase();
}

/** Why a server may not be used. */
export interface ServerBlockReason {
  /**
   * `EXCLUDED`: named in `mcp.excluded`; `NOT_ALLOWED`: `mcp.allowed` is set and does not name it;
   * `INVALID_LIST`: a list is malformed, so every server is blocked until it is fixed;
   * `UNTRUSTED_PROJECT`: its entry comes from the settings of a project folder the user has not
   * trusted (set by `loadSettings`, never by this policy);
   * `CHANGED_SINCE_TRUSTED`: its entry comes from a trusted project folder's settings but is not what
   * was trusted: its launch identity (`command`, `args`, `cwd`, `env`, `url`, `httpUrl`, `headers`,
   * `type`) or `trust` changed, or it was added, after the folder was last trusted (set by `loadSettings`).
   */
  readonly code: 'EXCLUDED' | 'NOT_ALLOWED' | 'INVALID_LIST' | 'UNTRUSTED_PROJECT' | 'CHANGED_SINCE_TRUSTED';
  /** A sentence for people. */
  readonly message: string;
  /** With `UNTRUSTED_PROJECT` and `CHANGED_SINCE_TRUSTED`: the project folder (real path) that would have to be trusted (again). */
  readonly projectFolder?: string;
  /**
   * With `CHANGED_SINCE_TRUSTED`: what differs from the trusted entry, one item per field, values
   * JSON-quoted (`command: "node" → "evil"`, `env.TOKEN: changed`); empty when the entry was never
   * trusted (added later, or the folder was trusted before entries were pinned).
   */
  readonly changes?: readonly string[];
  /** With `UNTRUSTED_PROJECT` and `CHANGED_SINCE_TRUSTED`: the command that trusts the folder (the `trustCommand` option of `loadSettings`). */
  readonly trustCommand?: string;
}

/** Options of {@link createServerAccessPolicy}. */
export interface ServerAccessPolicyOptions {
  /** Only these servers may be used; `undefined` means no restriction, `[]` means no server. */
  readonly allowed?: readonly string[] | undefined;
  /** These servers may never be used; wins over `allowed`. @default [] */
  readonly excluded?: readonly string[] | undefined;
  /** When set, every server is blocked with code `INVALID_LIST` and this explanation. */
  readonly invalidListMessage?: string | undefined;
}

/** Decides whether a server may be used, from the allow and exclude lists. */
export interface ServerAccessPolicy {
  /** The allow-list in use, or `undefined` when there is none. */
  readonly allowed: readonly string[] | undefined;
  /** The exclude-list in use. */
  readonly excluded: readonly string[];
  /** True when the server is not blocked. */
  isServerAllowed(name: string): boolean;
  /** Why the server is blocked, or `undefined` when it is not. */
  getServerBlockReason(name: string): ServerBlockReason | undefined;
}

/**
 * Builds the allow/exclude decision. Names are compared with {@link normalizeServerName};
 * `excluded` wins over `allowed`; an `allowed` list that is present but empty allows no server.
 *
 * @example
 * const policy = createServerAccessPolicy({ allowed: ['GitHub'], excluded: [] });
 * policy.isServerAllowed('github'); // true
 */
export function createServerAccessPolicy(options: ServerAccessPolicyOptions = {}): ServerAccessPolicy {
  const allowedSet = options.allowed === undefined ? undefined : new Set(options.allowed.map(normalizeServerName));
  const excludedSet = new Set((options.excluded ?? []).map(normalizeServerName));
  const getServerBlockReason = (name: string): ServerBlockReason | undefined => {
    const key = normalizeServerName(name);
    if (options.invalidListMessage !== undefined) return { code: 'INVALID_LIST', message: options.invalidListMessage };
    if (excludedSet.has(key)) return { code: 'EXCLUDED', message: `MCP server "${name}" is blocked by the mcp.excluded setting.` };
    if (allowedSet !== undefined && !allowedSet.has(key)) {
      return {
        code: 'NOT_ALLOWED',
        message:
          allowedSet.size === 0
            ? `MCP server "${name}" is blocked: mcp.allowed is an empty list, which allows no server.`
            : `MCP server "${name}" is blocked: it is not in the mcp.allowed setting.`,
      };
    }
    return undefined;
  };
  return {
    allowed: options.allowed === undefined ? undefined : [...options.allowed],
    excluded: [...(options.excluded ?? [])],
    isServerAllowed: (name) => getServerBlockReason(name) === undefined,
    getServerBlockReason,
  };
}
