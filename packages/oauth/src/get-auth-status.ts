import { isTokenExpiring } from './refresh-stored-token.js';
import type { TokenStore } from './token-store.js';

/** What is stored for a server: `none`, a `valid` token, one that is expiring but `refreshable`, or an `expired` one that cannot be refreshed. */
export type AuthStatus = 'none' | 'valid' | 'refreshable' | 'expired';

/** Reports the stored-token state of a server, for `toolhost mcp auth` listings. */
export async function getAuthStatus(options: { serverName: string; tokenStore: TokenStore; now?: number }): Promise<AuthStatus> {
  const stored = await options.tokenStore.get(options.serverName);
  if (!stored) return 'none';
  if (!isTokenExpiring(stored.token, options.now ?? Date.now())) return 'valid';
  return stored.token.refreshToken ? 'refreshable' : 'expired';
}
