import { escapeControlText } from '@toolhost/contract';
import type { LoadedServer, LoadedSettings } from '@toolhost/config';
import { getAuthStatus, type AuthStatus, type TokenStore } from '@toolhost/oauth';
import {
  collectServerStatuses,
  formatServerLine,
  shortenReason,
  type ServerConnectionCheck,
  type ServerStatusRow,
} from './server-status.js';

/** What `toolhost mcp auth` shows for a remote server: its live status and what is stored for it. */
export interface AuthStatusRow extends ServerStatusRow {
  /** The stored-token state (`none`, `valid`, `refreshable`, `expired`). */
  readonly token: AuthStatus;
}

const TOKEN_TEXT: Record<AuthStatus, string> = {
  none: 'no token stored',
  valid: 'token valid',
  refreshable: 'token expiring, will be refreshed',
  expired: 'token expired',
};

/** True for a server the OAuth sign-in applies to: a remote (sse or http) server without a Google `authProviderType`. */
export function usesOAuthSignIn(server: LoadedServer): boolean {
  const google =
    server.config.authProviderType === 'google_credentials' || server.config.authProviderType === 'service_account_impersonation';
  return server.transport.transport !== 'stdio' && !google;
}

/**
 * The remote servers of the settings with their stored-token state and, with `check`, whether a
 * connection succeeds now (all servers at once); a refusal that needs a sign-in is flagged.
 */
export async function collectAuthStatuses(options: {
  readonly settings: LoadedSettings;
  readonly tokenStore: TokenStore;
  readonly check?: ServerConnectionCheck | undefined;
}): Promise<AuthStatusRow[]> {
  const remote = options.settings.servers.filter(usesOAuthSignIn);
  const [rows, tokens] = await Promise.all([
    collectServerStatuses({ ...options.settings, servers: remote }, options.check),
    Promise.all(remote.map((server) => getAuthStatus({ serverName: server.name, tokenStore: options.tokenStore }))),
  ]);
  return rows.map((row, index) => ({ ...row, token: tokens[index] ?? 'none' }));
}

/**
 * The lines of one server of `toolhost mcp auth`, in the look of `mcp list` with the token state
 * in parentheses, and below a server that needs a sign-in the command to run:
 * `✗ github: https://api.example/mcp (http) - Disconnected (needs authentication, no token stored) [user]`.
 * `authCommand` is that command without the server name (`toolhost --app-dir .gemini mcp auth`
 * for another settings folder). @default 'toolhost mcp auth'
 */
export function formatAuthRow(row: AuthStatusRow, authCommand = 'toolhost mcp auth'): string[] {
  const { server } = row;
  const token = TOKEN_TEXT[row.token];
  if (row.status === 'connected') {
    return [formatServerLine(server, 'connected', row.token === 'none' ? 'no authentication needed' : `authenticated, ${token}`)];
  }
  if (row.status === 'disconnected' && row.needsAuthentication) {
    return [
      formatServerLine(server, 'disconnected', `needs authentication, ${token}`),
      `    Run "${authCommand} ${escapeControlText(server.name)}" to authenticate.`,
    ];
  }
  const line = formatServerLine(server, row.status, token);
  if (row.status === 'disconnected' && row.reason) return [line, `    Reason: ${shortenReason(row.reason)}`];
  if (row.status === 'enabled' && row.token === 'expired')
    return [line, `    Run "${authCommand} ${escapeControlText(server.name)}" to authenticate again.`];
  return [line];
}
