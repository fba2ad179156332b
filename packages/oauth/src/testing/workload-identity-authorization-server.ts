import { generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import type { VerifiedToken } from './protected-mcp-server.js';
import { authorizationServerMetadata, startJsonRoutesServer, type RouteAnswer, type SeenRequest } from './json-routes-server.js';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** One jwt-bearer grant the server saw. */
export interface SeenGrant {
  /** The form of the token request. */
  form: Record<string, string>;
  /** `sub` of the verified assertion, or `undefined` when it was refused. */
  subject: string | undefined;
  /** `jti` of the assertion. */
  jti: string | undefined;
  /** The OAuth error it answered, when it refused. */
  error: string | undefined;
  /** The access token it issued. */
  accessToken: string | undefined;
}

/** A workload identity platform (the token issuer) and the authorization server that trusts it. */
export interface WorkloadIdentityAuthorizationServer {
  /** The issuer (and base URL) of the authorization server. */
  url: string;
  /** Its token endpoint. */
  tokenEndpoint: string;
  /** Every request it received. */
  requests: SeenRequest[];
  /** Every token request with the jwt-bearer grant, in order. */
  grants: SeenGrant[];
  /** Token requests with any other grant type (a fallback), in order. */
  otherGrants: Array<Record<string, string>>;
  /** Requests to `/authorize` and `/register` (there must be none for workload identity). */
  interactive: SeenRequest[];
  /** `expires_in` of the next tokens, in seconds. */
  tokenLifetime: number;
  /**
   * Signs a workload identity token as the trusted platform would (ES256; `iss`
   * `https://platform.test`, `aud` the token endpoint unless given, a random `jti`).
   */
  signWorkloadToken(claims: { sub: string; aud?: string; lifetimeSeconds?: number }): string;
  /** Checks an access token for the protected MCP server (`audience` = the `resource` of its grant). */
  verifyAccessToken(token: string): Promise<VerifiedToken | undefined>;
  close(): Promise<void>;
}

/** The issuer of the workload identity tokens {@link startWorkloadIdentityAuthorizationServer} trusts. */
export const WORKLOAD_TOKEN_ISSUER = 'https://platform.test';

function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function signJwt(key: KeyObject, claims: Record<string, unknown>): string {
  const input = `${base64UrlJson({ alg: 'ES256', typ: 'JWT', kid: 'platform-key' })}.${base64UrlJson(claims)}`;
  const signature = sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  return `${input}.${signature.toString('base64url')}`;
}

/** The verified claims of an ES256 JWT signed with `key`, or the reason it is refused. */
function verifyJwt(jwt: string, key: KeyObject, audiences: string[]): { claims: Record<string, unknown> } | { refused: string } {
  const [header, payload, signature] = jwt.split('.');
  if (!header || !payload || signature === undefined) return { refused: 'not a JWS' };
  const valid = verify(
    'sha256',
    Buffer.from(`${header}.${payload}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!valid) return { refused: 'bad signature' };
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  if (claims.iss !== WORKLOAD_TOKEN_ISSUER) return { refused: 'untrusted issuer' };
  if (!audiences.includes(String(claims.aud))) return { refused: `wrong audience ${String(claims.aud)}` };
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return { refused: 'expired' };
  return { claims };
}

/**
 * A loopback authorization server that accepts the RFC 7523 jwt-bearer grant with workload
 * identity tokens of one trusted platform (SEP-1933): it verifies each assertion's ES256
 * signature, issuer, audience (its token endpoint or its issuer) and expiry, and issues an opaque
 * access token bound to the requested `resource`. It also advertises `authorization_code` with
 * `/authorize` and `/register` endpoints, and records any use of them, so that a client falling
 * back to a browser sign-in is caught.
 */
export async function startWorkloadIdentityAuthorizationServer(
  options: { grantTypesSupported?: string[] } = {},
): Promise<WorkloadIdentityAuthorizationServer> {
  const platform = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const grants: SeenGrant[] = [];
  const otherGrants: Array<Record<string, string>> = [];
  const interactive: SeenRequest[] = [];
  const issued = new Map<string, { resource: string; scope: string; subject: string }>();
  const state = { tokenLifetime: 3600 };
  const server = await startJsonRoutesServer((request, base): RouteAnswer | undefined => {
    const path = new URL(request.path, base).pathname;
    if (path === '/.well-known/oauth-authorization-server') {
      return {
        body: authorizationServerMetadata(base, {
          grant_types_supported: options.grantTypesSupported ?? ['authorization_code', JWT_BEARER],
          token_endpoint_auth_methods_supported: ['none'],
        }),
      };
    }
    if (path === '/authorize' || path === '/register') {
      interactive.push(request);
      return { status: 400, body: { error: 'invalid_request', error_description: 'no interactive sign-in here' } };
    }
    if (path !== '/token') return undefined;
    const form = Object.fromEntries(new URLSearchParams(request.body));
    if (form.grant_type !== JWT_BEARER) {
      otherGrants.push(form);
      return { status: 400, body: { error: 'unsupported_grant_type' } };
    }
    const seen: SeenGrant = { form, subject: undefined, jti: undefined, error: undefined, accessToken: undefined };
    grants.push(seen);
    const checked = form.assertion ? verifyJwt(form.assertion, platform.publicKey, [`${base}/token`, base]) : { refused: 'no assertion' };
    if ('refused' in checked) {
      seen.error = 'invalid_grant';
      return { status: 400, body: { error: 'invalid_grant', error_description: `workload token refused: ${checked.refused}` } };
    }
    seen.subject = String(checked.claims.sub);
    seen.jti = String(checked.claims.jti);
    const accessToken = `wif-at-${grants.length}`;
    seen.accessToken = accessToken;
    issued.set(accessToken, { resource: form.resource ?? '', scope: form.scope ?? 'mcp:tools', subject: seen.subject });
    return { body: { access_token: accessToken, token_type: 'Bearer', expires_in: state.tokenLifetime, scope: form.scope ?? 'mcp:tools' } };
  });
  return {
    url: server.url,
    tokenEndpoint: `${server.url}/token`,
    requests: server.requests,
    grants,
    otherGrants,
    interactive,
    get tokenLifetime() {
      return state.tokenLifetime;
    },
    set tokenLifetime(value: number) {
      state.tokenLifetime = value;
    },
    signWorkloadToken: ({ sub, aud, lifetimeSeconds }) => {
      const now = Math.floor(Date.now() / 1000);
      return signJwt(platform.privateKey, {
        iss: WORKLOAD_TOKEN_ISSUER,
        sub,
        aud: aud ?? `${server.url}/token`,
        iat: now,
        exp: now + (lifetimeSeconds ?? 600),
        jti: randomUUID(),
      });
    },
    verifyAccessToken: async (token) => {
      const grant = issued.get(token);
      return grant ? { audience: grant.resource, scope: grant.scope, clientId: grant.subject } : undefined;
    },
    close: server.close,
  };
}
