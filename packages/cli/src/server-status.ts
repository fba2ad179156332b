import { escapeControlText, maskUrl } from '@toolhost/contract';
import type { LoadedServer, LoadedSettings } from '@toolhost/config';

/** The state found by a live connection check. */
export type ServerConnectionState = 'connected' | 'disconnected';

/** What a live connection check found: the state, and for a failure why. */
export interface ServerConnectionResult {
  /** Whether the handshake with the server succeeded. */
  readonly state: ServerConnectionState;
  /** Why the server could not be connected (one line, for people); absent when connected. */
  readonly reason?: string | undefined;
  /** The technical detail behind `reason` (the error's cause chain), shown with `--debug`. */
  readonly detail?: string | undefined;
  /** True when the server refused because it needs an OAuth sign-in (`toolhost mcp auth <name>`). */
  readonly needsAuthentication?: boolean | undefined;
  /** The MCP revision negotiated, when connected (`2026-07-28`, `2025-11-25`, ...). */
  readonly protocolVersion?: string | undefined;
}

/**
 * Connects to one server and reports whether that worked, for the live status of `mcp list`.
 * The command line uses `createProbeConnectionCheck` (a real `probeServer` attempt of
 * `@toolhost/discovery`); it is only called for servers that are neither blocked nor disabled.
 * A check that rejects counts as `disconnected` with the rejection as the reason.
 */
export type ServerConnectionCheck = (server: LoadedServer) => Promise<ServerConnectionResult>;

/** What `mcp list` shows for a server: a live state, or `enabled` when no check was made. */
export type ServerListStatus = ServerConnectionState | 'blocked' | 'disabled' | 'enabled';

const LOOK: Record<ServerListStatus, { icon: string; label: string }> = {
  connected: { icon: '✓', label: 'Connected' },
  disconnected: { icon: '✗', label: 'Disconnected' },
  blocked: { icon: '⛔', label: 'Blocked' },
  disabled: { icon: '○', label: 'Disabled' },
  enabled: { icon: '•', label: 'Enabled' },
};

const BLOCK_DETAIL = {
  EXCLUDED: 'in mcp.excluded',
  NOT_ALLOWED: 'not in mcp.allowed',
  INVALID_LIST: 'mcp.allowed or mcp.excluded is malformed',
} as const;

function blockDetail(reason: NonNullable<LoadedServer['blockReason']>): string {
  if (reason.code === 'UNTRUSTED_PROJECT') return `project folder not trusted: run "${reason.trustCommand ?? 'toolhost trust'}"`;
  if (reason.code === 'CHANGED_SINCE_TRUSTED') {
    const what =
      reason.changes !== undefined && reason.changes.length > 0 ? `changed since trusted: ${reason.changes.join('; ')}` : 'not trusted yet';
    return `${what}; check it, then run "${reason.trustCommand ?? 'toolhost trust'}" again`;
  }
  return BLOCK_DETAIL[reason.code];
}

/** The state a server has without connecting to it: blocked, disabled, or enabled. */
export function getConfiguredStatus(server: LoadedServer): 'blocked' | 'disabled' | 'enabled' {
  if (server.blockReason !== undefined) return 'blocked';
  return server.enabled ? 'enabled' : 'disabled';
}

/** One row of `mcp list`: the server, its status and, for a disconnected server, why. */
export interface ServerStatusRow {
  /** The server as loaded from the settings. */
  readonly server: LoadedServer;
  /** What the list shows for it. */
  readonly status: ServerListStatus;
  /** Why a live check failed (only with status `disconnected`). */
  readonly reason?: string | undefined;
  /** The technical detail behind `reason`, shown with `--debug`. */
  readonly detail?: string | undefined;
  /** True when a live check failed because the server needs an OAuth sign-in. */
  readonly needsAuthentication?: boolean | undefined;
  /** The MCP revision negotiated by a live check that connected. */
  readonly protocolVersion?: string | undefined;
}

/**
 * The status of every server, in settings order. With `check`, enabled servers are connected
 * (all at once, so the whole list takes about as long as the slowest server) and shown as
 * connected or disconnected; without it nothing is connected.
 */
export async function collectServerStatuses(settings: LoadedSettings, check?: ServerConnectionCheck): Promise<ServerStatusRow[]> {
  return Promise.all(
    settings.servers.map(async (server): Promise<ServerStatusRow> => {
      const configured = getConfiguredStatus(server);
      if (configured !== 'enabled' || check === undefined) return { server, status: configured };
      const result = await check(server).catch((error: unknown): ServerConnectionResult => ({
        state: 'disconnected',
        reason: error instanceof Error ? error.message : String(error),
      }));
      if (result.state === 'connected')
        return { server, status: 'connected', ...(result.protocolVersion ? { protocolVersion: result.protocolVersion } : {}) };
      return {
        server,
        status: 'disconnected',
        reason: result.reason,
        ...(result.detail ? { detail: result.detail } : {}),
        needsAuthentication: result.needsAuthentication === true,
      };
    }),
  );
}

/** Longest reason shown under a disconnected server; the rest is cut with `…`. */
export const MAX_REASON_LENGTH = 480;

/**
 * A reason made fit for one line: whitespace folded, cut to {@link MAX_REASON_LENGTH} characters,
 * control, BiDi and zero-width characters (server-sent text) written as `\uXXXX` escapes.
 */
export function shortenReason(reason: string): string {
  const folded = escapeControlText(reason.replace(/\s+/g, ' ').trim());
  return folded.length > MAX_REASON_LENGTH ? `${folded.slice(0, MAX_REASON_LENGTH - 1)}…` : folded;
}

/** Longest technical detail shown by `--debug`. */
const MAX_DETAIL_LENGTH = 2000;

/**
 * The lines of one row of `mcp list`: {@link formatServerLine}, then, for a disconnected server
 * with a known reason, an indented `Reason: …` line below it (the first line keeps the seeds' format);
 * with `debug`, also the technical detail behind the reason in a `Detail: …` line.
 */
export function formatServerRow(row: ServerStatusRow, options: { readonly debug?: boolean } = {}): string[] {
  const line = formatServerLine(row.server, row.status, row.protocolVersion ? `MCP ${row.protocolVersion}` : undefined);
  if (row.status !== 'disconnected' || !row.reason) return [line];
  const lines = [line, `    Reason: ${shortenReason(row.reason)}`];
  if (options.debug === true && row.detail) {
    lines.push(`    Detail: ${escapeControlText(row.detail.replace(/\s+/g, ' ').trim(), { maxLength: MAX_DETAIL_LENGTH })}`);
  }
  return lines;
}

/**
 * What a server runs or reaches, fit for a terminal: the command line (a word with spaces or
 * special characters single-quoted, so `["a b"]` and `["a", "b"]` differ) or the URL with its
 * user name, password and query values masked; escaped either way (a settings file may hold
 * anything).
 */
export function formatServerTarget(server: LoadedServer): string {
  const { transport } = server;
  return escapeControlText(transport.transport === 'stdio' ? transport.target : maskUrl(transport.target));
}

/**
 * One line of `mcp list`, in the seeds' format followed by the scope:
 * `✓ github: npx -y server-github (stdio) - Connected [project]`. `note`, when given, is added in
 * parentheses after the status (`- Connected (no authentication needed) [user]`). The name and
 * target are escaped, the target's arguments quoted where they need it and a URL's credentials and
 * query values masked.
 */
export function formatServerLine(server: LoadedServer, status: ServerListStatus, note?: string): string {
  const look = LOOK[status];
  const detail = status === 'blocked' && server.blockReason !== undefined ? ` (${escapeControlText(blockDetail(server.blockReason))})` : '';
  const extra = note ? ` (${escapeControlText(note)})` : '';
  return `${look.icon} ${escapeControlText(server.name)}: ${formatServerTarget(server)} (${server.transport.transport}) - ${look.label}${detail}${extra} [${server.scope}]`;
}
