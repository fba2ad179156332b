import type { LoadedServer, LoadedSettings } from '@toolhost/config';

/** The result of a live connection check. */
export type ServerConnectionState = 'connected' | 'disconnected';

/**
 * Connects to one server and reports whether that worked. This is the seam for the live status
 * of `mcp list` (to be provided by `@toolhost/discovery`); it is only called for servers that
 * are neither blocked nor disabled.
 */
export type ServerConnectionCheck = (server: LoadedServer) => Promise<ServerConnectionState>;

/** What `mcp list` shows for a server: a live state, or `enabled` when no check was made. */
export type ServerListStatus = ServerConnectionState | 'blocked' | 'disabled' | 'enabled';

const LOOK: Record<ServerListStatus, { icon: string; label: string }> = {
  connected: { icon: '✓', label: 'Connected' },
  disconnected: { icon: '✗', label: 'Disconnected' },
  blocked: { icon: '⛔', label: 'Blocked' },
  disabled: { icon: '○', label: 'Disabled' },
  enabled: { icon: '•', label: 'Enabled' },
};

const BLOCK_DETAIL = { EXCLUDED: 'in mcp.excluded', NOT_ALLOWED: 'not in mcp.allowed', INVALID_LIST: 'mcp.allowed or mcp.excluded is malformed' } as const;

/** The state a server has without connecting to it: blocked, disabled, or enabled. */
export function getConfiguredStatus(server: LoadedServer): 'blocked' | 'disabled' | 'enabled' {
  if (server.blockReason !== undefined) return 'blocked';
  return server.enabled ? 'enabled' : 'disabled';
}

/**
 * The status of every server, in settings order. With `check`, enabled servers are connected
 * (all at once) and shown as connected or disconnected; without it nothing is connected.
 */
export async function collectServerStatuses(settings: LoadedSettings, check?: ServerConnectionCheck): Promise<{ server: LoadedServer; status: ServerListStatus }[]> {
  return Promise.all(settings.servers.map(async (server) => {
    const configured = getConfiguredStatus(server);
    if (configured !== 'enabled' || check === undefined) return { server, status: configured };
    const status = await check(server).catch((): ServerConnectionState => 'disconnected');
    return { server, status };
  }));
}

/**
 * One line of `mcp list`, in the seeds' format followed by the scope:
 * `✓ github: npx -y server-github (stdio) - Connected [project]`.
 */
export function formatServerLine(server: LoadedServer, status: ServerListStatus): string {
  const look = LOOK[status];
  const detail = status === 'blocked' && server.blockReason !== undefined ? ` (${BLOCK_DETAIL[server.blockReason.code]})` : '';
  return `${look.icon} ${server.name}: ${server.transport.target} (${server.transport.transport}) - ${look.label}${detail} [${server.scope}]`;
}
