/**
 * The `x-mcp-header` rules of MCP 2026-07-28 (Streamable HTTP, "Schema Extension", SEP-2243): a
 * tool's input schema may ask for a parameter to be mirrored into an `Mcp-Param-<name>` request
 * header. A client on Streamable HTTP must leave out every tool whose declarations break the rules,
 * since it could not send a correct request for it.
 */

/** The schema keyword that declares a header. */
const HEADER_KEYWORD = 'x-mcp-header';

/** RFC 9110 §5.6.2 `token`: one or more `tchar`. No spaces, control characters, non-ASCII or delimiters. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Header names a declaration may not take, compared without case: credentials, HTTP framing and
 * routing, and MCP's own headers. The value is sent as `Mcp-Param-<name>`, so it cannot replace
 * the real header; but a parameter declared `Authorization` or `Cookie` is a credential that
 * would travel where proxies neither hide nor expect one (the spec says servers SHOULD NOT mark
 * sensitive parameters), and the others only make sense as the header they name.
 */
export const RESERVED_HEADER_NAMES: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'dpop',
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
]);

/** Property types a header can carry. `number` is excluded by the spec. */
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** Keywords whose value is one subschema or an array of subschemas. */
const SUBSCHEMA_KEYWORDS = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
] as const;

/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP_KEYWORDS = ['patternProperties', 'dependentSchemas', '$defs', 'definitions'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function where(path: readonly string[]): string {
  // Property names come from the server: JSON-quoted, so control characters never reach a log or terminal raw.
  return path.length === 0 ? 'the schema root' : `property ${JSON.stringify(path.join('.'))}`;
}

/**
 * Why a tool's input schema has an invalid `x-mcp-header` declaration, or `undefined` when every
 * declaration (if any) is valid. The rules:
 * - a declaration sits only on a property reached from the root through `properties` alone (not
 *   on the root, nor under `items`, `anyOf`, `$defs`, `if`, ... or any other subschema keyword);
 * - its value is a non-empty string that is an HTTP token (RFC 9110): no spaces, colons, control
 *   characters or non-ASCII characters;
 * - the property's `type` is `string`, `integer` or `boolean`;
 * - no two declarations of the tool have the same name, compared without case;
 * - the name is not one of {@link RESERVED_HEADER_NAMES} (`Authorization`, `Host`, `Mcp-Session-Id`...).
 *
 * The walk is bounded by the schema itself (already bounded in size by the transport) and stops at
 * the first problem.
 */
export function headerDeclarationProblem(inputSchema: unknown): string | undefined {
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: readonly string[], reachable: boolean): string | undefined => {
    if (!isRecord(node)) return undefined;
    if (Object.hasOwn(node, HEADER_KEYWORD)) {
      const name = node[HEADER_KEYWORD];
      if (!reachable || path.length === 0) {
        return `${where(path)} declares x-mcp-header where it is not allowed (only on properties reached through "properties" alone)`;
      }
      if (typeof name !== 'string' || name.length === 0) return `${where(path)} declares an empty or non-string x-mcp-header`;
      if (!HTTP_TOKEN.test(name)) {
        return `${where(path)} declares x-mcp-header ${JSON.stringify(name)}, which is not an HTTP token (no spaces, colons, control or non-ASCII characters)`;
      }
      const type = node.type;
      if (typeof type !== 'string' || !HEADER_TYPES.has(type)) {
        return `${where(path)} declares x-mcp-header ${JSON.stringify(name)} on a property of type ${JSON.stringify(type ?? null)} (only string, integer and boolean can be headers)`;
      }
      if (RESERVED_HEADER_NAMES.has(name.toLowerCase())) {
        return `${where(path)} declares x-mcp-header ${JSON.stringify(name)}, the name of a credential, HTTP or MCP header, which a tool parameter may not take`;
      }
      const previous = seen.get(name.toLowerCase());
      if (previous !== undefined)
        return `x-mcp-header ${JSON.stringify(name)} is declared twice (also as ${JSON.stringify(previous)}; header names ignore case)`;
      seen.set(name.toLowerCase(), name);
    }
    if (isRecord(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        const problem = visit(child, [...path, key], reachable);
        if (problem !== undefined) return problem;
      }
    }
    const inner = [...path, '…'];
    for (const keyword of SUBSCHEMA_KEYWORDS) {
      const value = node[keyword];
      for (const child of Array.isArray(value) ? value : [value]) {
        const problem = visit(child, inner, false);
        if (problem !== undefined) return problem;
      }
    }
    for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
      const value = node[keyword];
      if (!isRecord(value)) continue;
      for (const child of Object.values(value)) {
        const problem = visit(child, inner, false);
        if (problem !== undefined) return problem;
      }
    }
    return undefined;
  };
  return visit(inputSchema, [], true);
}
