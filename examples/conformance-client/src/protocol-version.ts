/**
 * The MCP revision the conformance runner asks for: `MCP_CONFORMANCE_PROTOCOL_VERSION`, which
 * `@modelcontextprotocol/conformance` 0.2 sets for every scenario (the `--spec-version` given, else
 * the scenario's own revision). 0.1.x does not set it; the client then negotiates.
 *
 * Returns the revision when it is a dated revision (`YYYY-MM-DD`), else `undefined`. Whether
 * toolhost can pin that revision is the host's decision (the entry's `protocolVersion` accepts the
 * revisions of `MCP_PROTOCOL_VERSIONS` of `@toolhost/config`); see `runScenario`.
 */
export function requestedProtocolVersion(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed && /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? trimmed : undefined;
}
