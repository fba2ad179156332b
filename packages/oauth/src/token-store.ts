/** An OAuth token as stored. */
export interface StoredToken {
  /** The access token sent as `Authorization: Bearer`. */
  accessToken: string;
  /** Usually `Bearer`. */
  tokenType: string;
  /** The refresh token, when the authorization server issued one. */
  refreshToken?: string;
  /** Expiry as milliseconds since the epoch, when known. */
  expiresAt?: number;
  /** Scopes granted (space-separated), when known. */
  scope?: string;
}

/** How the client identified itself to the authorization server. */
export interface StoredClient {
  /** The client id; empty when unknown (an entry Gemini CLI or Qwen Code wrote without it). */
  clientId: string;
  /** The client secret of a confidential client. */
  clientSecret?: string;
  /** `none`, `client_secret_basic`, `client_secret_post` or `private_key_jwt` (the key itself is never stored). */
  tokenEndpointAuthMethod?: string;
  /** Where the id came from (`configured` for an entry Gemini CLI or Qwen Code wrote, whose format does not say). */
  source: 'configured' | 'metadata-document' | 'dynamic-registration';
  /** The redirect URI registered with it (dynamic registration). */
  redirectUri?: string;
}

/**
 * The DPoP key pair (RFC 9449) of a client registration: the private key as a JWK (its public
 * members included), kept with the tokens it binds. Stored with the same protection as the
 * tokens (a `FileTokenStore` file has mode 0600).
 */
export interface StoredDpopKey {
  /** The JWS algorithm the proofs are signed with, e.g. `ES256`. */
  alg: string;
  /** The private key as a JWK (`kty`, `crv`, `x`, `y`, `d` for EC keys). */
  privateJwk: Record<string, unknown>;
}

/** Everything stored for one MCP server and one authorization server (issuer). */
export interface StoredOAuthCredentials {
  /** Name of the server entry. */
  serverName: string;
  /**
   * Issuer of the authorization server that issued the token; empty when unknown (an entry
   * Gemini CLI or Qwen Code wrote: their format has no issuer).
   */
  issuer: string;
  /** URL of the MCP server the token is for; empty when unknown (an entry Gemini CLI or Qwen Code wrote without it). */
  mcpServerUrl: string;
  /** The RFC 8707 resource indicator the token was requested for; empty when unknown. */
  resource: string;
  /** Token endpoint, for refresh; empty when unknown (an entry Gemini CLI or Qwen Code wrote without it). */
  tokenEndpoint: string;
  /** The client registration. */
  client: StoredClient;
  /** The token. */
  token: StoredToken;
  /** Last write, milliseconds since the epoch. */
  updatedAt: number;
  /** How the token was obtained (`oauth.grantType`); absent means `authorization_code`. */
  grantType?: 'authorization_code' | 'client_credentials' | 'enterprise_managed' | 'jwt_bearer';
  /**
   * The DPoP key of the client registration, when the token was requested with DPoP proofs
   * (`oauth.dpop`): refreshes and MCP requests prove possession of it. Absent for bearer-only entries.
   */
  dpopKey?: StoredDpopKey;
}

/**
 * Where tokens live. Entries are keyed by server name and issuer. Implementations must make
 * each call atomic; {@link InMemoryTokenStore} and `FileTokenStore` are provided.
 *
 * A store that several processes share (several instances of one app behind a load balancer, a
 * database or Redis store) should also implement {@link TokenStore.withLock}: a token is then
 * refreshed by one process, and the others use the token it stored instead of refreshing again
 * (which, with refresh tokens that rotate, would sign the user out).
 */
export interface TokenStore {
  /** The entry for `serverName` and `issuer`; without `issuer`, the most recently updated one of the server. */
  get(serverName: string, issuer?: string): Promise<StoredOAuthCredentials | undefined>;
  /** Stores an entry, replacing the one with the same server name and issuer. */
  set(credentials: StoredOAuthCredentials): Promise<void>;
  /** Deletes the entry for `serverName` and `issuer`, or every entry of the server without `issuer`. */
  delete(serverName: string, issuer?: string): Promise<void>;
  /** Every stored entry. */
  list(): Promise<StoredOAuthCredentials[]>;
  /**
   * Runs `work` while holding the lock `name`, exclusive across every process sharing the store
   * (a lock file, a Redis lock, a database advisory lock), and returns what it returns. Used around
   * refreshes and renewals: under the lock the entry is read again, and a token another process
   * renewed meanwhile is used as it is. `name` is opaque (it names one entry). The lock must be
   * released when `work` settles, and must not be taken again by `work` itself (it calls
   * `get`/`set`/`delete`, never `withLock`). Optional: without it, each process refreshes on its own.
   */
  withLock?<T>(name: string, work: () => Promise<T>): Promise<T>;
}

/** The {@link TokenStore.withLock} name of the refreshes and renewals of one entry. */
export function tokenLockName(serverName: string, issuer: string): string {
  return JSON.stringify(['oauth-token', serverName, issuer]);
}

/** Picks the entry of a server (and issuer) from a list; shared by the store implementations. */
export function findCredentials(
  entries: readonly StoredOAuthCredentials[],
  serverName: string,
  issuer?: string,
): StoredOAuthCredentials | undefined {
  const matching = entries.filter((e) => e.serverName === serverName && (issuer === undefined || e.issuer === issuer));
  return matching.sort((a, b) => b.updatedAt - a.updatedAt)[0];
}

/** Returns `entries` with `credentials` replacing the entry of the same server and issuer. */
export function upsertCredentials(
  entries: readonly StoredOAuthCredentials[],
  credentials: StoredOAuthCredentials,
): StoredOAuthCredentials[] {
  return [...entries.filter((e) => !(e.serverName === credentials.serverName && e.issuer === credentials.issuer)), credentials];
}
