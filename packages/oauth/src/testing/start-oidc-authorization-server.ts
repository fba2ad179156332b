import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type ClientMetadata } from 'oidc-provider';
import type { VerifiedToken } from './protected-mcp-server.js';

/**
 * Runs `oidc-provider` on 127.0.0.1 (port 0) as a real authorization server: open dynamic
 * client registration, PKCE S256, resource indicators (RFC 8707) with the resource as the
 * token audience, refresh tokens for every client allowed the grant, the client credentials
 * grant for the static `clients`, and the built-in development login and consent pages.
 */
export async function startOidcAuthorizationServer(
  options: {
    /** Scopes of the resource servers. @default ['mcp:tools', 'mcp:admin'] */
    resourceScopes?: string[];
    /** Access-token lifetime in seconds. @default 3600 */
    accessTokenTtl?: number;
    /** Pre-registered clients (for example a `client_credentials` client). @default none */
    clients?: ClientMetadata[];
    /** Require a server-supplied nonce in every DPoP proof at the token endpoint (RFC 9449 §8). @default false */
    dpopNonce?: boolean;
  } = {},
): Promise<{
  issuer: string;
  provider: Provider;
  /** Every token-endpoint request: whether it carried a DPoP proof, and the answer's status and `DPoP-Nonce`. */
  tokenRequests: Array<{ dpop: boolean; status: number; nonce: string | undefined }>;
  verifyAccessToken: (token: string) => Promise<VerifiedToken | undefined>;
  close: () => Promise<void>;
}> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const resourceScopes = options.resourceScopes ?? ['mcp:tools', 'mcp:admin'];
  const provider = new Provider(issuer, {
    clients: options.clients ?? [],
    scopes: ['openid', 'offline_access', ...resourceScopes],
    pkce: { required: () => true },
    features: {
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      devInteractions: { enabled: true },
      // DPoP (RFC 9449) is on by default in oidc-provider 9: metadata, proofs, `cnf.jkt` binding.
      dPoP: { enabled: true, ...(options.dpopNonce ? { nonceSecret: randomBytes(32), requireNonce: () => true } : {}) },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => undefined as unknown as string,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: resourceScopes.join(' '),
          accessTokenTTL: options.accessTokenTtl ?? 3600,
          accessTokenFormat: 'opaque',
        }),
      },
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      AccessToken: options.accessTokenTtl ?? 3600,
      Interaction: 600,
      Session: 3600,
      Grant: 3600,
      RefreshToken: 86_400,
    },
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
  });
  const tokenRequests: Array<{ dpop: boolean; status: number; nonce: string | undefined }> = [];
  const handle = provider.callback();
  http.on('request', (req, res) => {
    if (req.url?.split('?')[0] === '/token') {
      const seen = { dpop: req.headers['dpop'] !== undefined, status: 0, nonce: undefined as string | undefined };
      tokenRequests.push(seen);
      res.on('finish', () => {
        seen.status = res.statusCode;
        const nonce = res.getHeader('dpop-nonce');
        if (typeof nonce === 'string') seen.nonce = nonce;
      });
    }
    void handle(req, res);
  });
  return {
    issuer,
    provider,
    tokenRequests,
    async verifyAccessToken(token) {
      // A user's token, or one of the client credentials grant.
      const found = (await provider.AccessToken.find(token)) ?? (await provider.ClientCredentials.find(token));
      if (!found || found.isExpired) return undefined;
      return {
        audience: found.aud as string | string[] | undefined,
        scope: found.scope ?? '',
        clientId: found.clientId ?? '',
        ...(found.jkt ? { jkt: found.jkt } : {}),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
