// Test helper: an in-memory OAuth authorization server provider for the SDK's legacy auth router
// that approves every authorization request at once (no login page), binds each code and token
// to the client, the PKCE challenge and the resource it was issued for, and checks them.
import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import type {
  AuthInfo,
  AuthorizationParams,
  OAuthRegisteredClientsStore,
  OAuthServerProvider,
} from '@modelcontextprotocol/server-legacy/auth';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/server-legacy/auth';

type ClientInformation = Parameters<OAuthServerProvider['authorize']>[0];

interface IssuedCode {
  readonly clientId: string;
  readonly params: AuthorizationParams;
}

/** An auto-approving provider; `acceptsResource` decides which `resource` values get tokens. */
export class AutoApprovingOAuthProvider implements OAuthServerProvider {
  readonly #clients = new Map<string, ClientInformation>();
  readonly #codes = new Map<string, IssuedCode>();
  readonly #tokens = new Map<string, AuthInfo>();
  readonly #acceptsResource: (resource: URL | undefined) => boolean;

  constructor(acceptsResource: (resource: URL | undefined) => boolean) {
    this.#acceptsResource = acceptsResource;
  }

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (clientId) => this.#clients.get(clientId),
      registerClient: (metadata) => {
        const client = { ...metadata, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as ClientInformation;
        this.#clients.set(client.client_id, client);
        return client;
      },
    };
  }

  async authorize(client: ClientInformation, params: AuthorizationParams, res: Response): Promise<void> {
    if (!this.#acceptsResource(params.resource)) {
      res.status(400).json({ error: 'invalid_target', error_description: `resource ${String(params.resource)} is not served here` });
      return;
    }
    const code = randomUUID();
    this.#codes.set(code, { clientId: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(client: ClientInformation, authorizationCode: string): Promise<string> {
    return this.#code(client, authorizationCode).params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: ClientInformation, authorizationCode: string) {
    const issued = this.#code(client, authorizationCode);
    this.#codes.delete(authorizationCode);
    return this.#issue(client.client_id, issued.params.scopes ?? [], issued.params.resource);
  }

  async exchangeRefreshToken(): Promise<never> {
    throw new InvalidGrantError('refresh tokens are not issued by this test server');
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const info = this.#tokens.get(token);
    if (!info || (info.expiresAt !== undefined && info.expiresAt < Date.now() / 1000))
      throw new InvalidTokenError('unknown or expired token');
    return info;
  }

  #code(client: ClientInformation, code: string): IssuedCode {
    const issued = this.#codes.get(code);
    if (!issued || issued.clientId !== client.client_id) throw new InvalidGrantError('unknown authorization code');
    return issued;
  }

  #issue(clientId: string, scopes: string[], resource: URL | undefined) {
    const token = randomUUID();
    const expiresIn = 3600;
    this.#tokens.set(token, {
      token,
      clientId,
      scopes,
      expiresAt: Math.floor(Date.now() / 1000) + expiresIn,
      ...(resource ? { resource } : {}),
    });
    return { access_token: token, token_type: 'bearer', expires_in: expiresIn, scope: scopes.join(' ') };
  }
}
