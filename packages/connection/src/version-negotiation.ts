import type { ClientOptions } from '@modelcontextprotocol/client';
import { getServerTransport, type McpServerConfig } from '@toolhost/config';

/** How long a stdio server may take to answer the `server/discover` probe before it is treated as a 2025-era server. */
export const STDIO_PROBE_TIMEOUT_MS = 5_000;

/** The first revision of the modern era (negotiated through `server/discover`). */
const FIRST_MODERN_REVISION = '2026-07-28';

/**
 * The SDK client options that negotiate, or pin, the MCP revision for one server entry.
 * Without `protocolVersion`: 2026-07-28 through `server/discover` where the server speaks it,
 * else the `initialize` handshake (a stdio server silent for {@link STDIO_PROBE_TIMEOUT_MS} counts
 * as a 2025-era one). With it: exactly that revision, or a `PROTOCOL_VERSION_MISMATCH` error.
 */
export function versionNegotiationOptions(config: McpServerConfig): ClientOptions {
  const { protocolVersion } = config;
  if (protocolVersion === undefined) {
    const stdio = getServerTransport(config)?.transport === 'stdio';
    // The probe never outlasts the entry's own timeout.
    const probeMs = Math.min(STDIO_PROBE_TIMEOUT_MS, config.timeout ?? STDIO_PROBE_TIMEOUT_MS);
    return { versionNegotiation: { mode: 'auto', ...(stdio ? { probe: { timeoutMs: probeMs } } : {}) } };
  }
  if (isModernRevision(protocolVersion)) return { versionNegotiation: { mode: { pin: protocolVersion } } };
  // A 2025-era pin: the plain `initialize` handshake, offering only that revision.
  return { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: [protocolVersion] };
}

/** True for revisions of the modern era (2026-07-28 and later: per-request metadata, no sessions). */
export function isModernRevision(protocolVersion: string | undefined): boolean {
  return protocolVersion !== undefined && protocolVersion >= FIRST_MODERN_REVISION;
}
