import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { authorizationServerMetadata } from './json-routes-server.js';
import type { VerifiedToken } from './protected-mcp-server.js';

/** Asymmetric JWS algorithms a DPoP proof may use (RFC 9449 §11.6: no `none`, no MAC). */
const PROOF_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'];

/** A DPoP proof that passed every check of {@link verifyDpopProof}. */
export interface VerifiedDpopProof {
  /** RFC 7638 SHA-256 thumbprint of the proof's key. */
  jkt: string;
  /** The proof's `jti`. */
  jti: string;
  /** The proof's `nonce`, when it has one. */
  nonce?: string;
  /** The proof's `ath`, when it has one. */
  ath?: string;
  /** The whole payload. */
  payload: JWTPayload;
}

/** `base64url(sha256(token))`: the `ath` of a proof presented with `token` (RFC 9449 §4.1). */
export function accessTokenHashOf(token: string): string {
  return createHash('sha256').update(token, 'ascii').digest('base64url');
}

/**
 * Checks a DPoP proof as RFC 9449 §4.3 says, with jose: one `DPoP` header, `typ` `dpop+jwt`, an
 * asymmetric `alg`, a public `jwk` that verifies the signature, a `jti`, `htm` and `htu` (without
 * query or fragment) of this request, `iat` within 5 minutes, and, given an access token, `ath`
 * equal to its hash. Returns the proof or the reason it was refused.
 */
export async function verifyDpopProof(
  header: string | string[] | undefined,
  expected: { htm: string; htu: string; accessToken?: string },
): Promise<{ ok: true; proof: VerifiedDpopProof } | { ok: false; error: string }> {
  if (header === undefined) return { ok: false, error: 'no DPoP proof' };
  if (Array.isArray(header) || header.includes(',')) return { ok: false, error: 'more than one DPoP proof' };
  let protectedHeader: ReturnType<typeof decodeProtectedHeader>;
  try {
    protectedHeader = decodeProtectedHeader(header);
  } catch {
    return { ok: false, error: 'not a JWS' };
  }
  const jwk = protectedHeader.jwk as JWK | undefined;
  if (protectedHeader.typ !== 'dpop+jwt') return { ok: false, error: 'typ is not dpop+jwt' };
  if (!protectedHeader.alg || !PROOF_ALGORITHMS.includes(protectedHeader.alg)) return { ok: false, error: 'alg is not asymmetric' };
  if (!jwk) return { ok: false, error: 'no jwk' };
  if (jwk.d !== undefined) return { ok: false, error: 'jwk holds a private key' };
  let payload: JWTPayload;
  try {
    const key = await importJWK(jwk, protectedHeader.alg);
    ({ payload } = await jwtVerify(header, key, { algorithms: PROOF_ALGORITHMS, typ: 'dpop+jwt' }));
  } catch (error) {
    return { ok: false, error: `signature: ${(error as Error).message}` };
  }
  const { jti, htm, htu, iat, ath, nonce } = payload as JWTPayload & { htm?: unknown; htu?: unknown; ath?: unknown; nonce?: unknown };
  if (typeof jti !== 'string' || jti.length < 8) return { ok: false, error: 'no jti' };
  if (htm !== expected.htm) return { ok: false, error: `htm ${String(htm)} is not ${expected.htm}` };
  if (typeof htu !== 'string' || htu.includes('?') || htu.includes('#') || htu !== expected.htu)
    return { ok: false, error: `htu ${String(htu)} is not ${expected.htu}` };
  if (typeof iat !== 'number' || Math.abs(Date.now() / 1000 - iat) > 300) return { ok: false, error: 'iat not recent' };
  if (expected.accessToken !== undefined && ath !== accessTokenHashOf(expected.accessToken))
    return { ok: false, error: 'ath does not match the access token' };
  const proof: VerifiedDpopProof = { jkt: await calculateJwkThumbprint(jwk, 'sha256'), jti, payload };
  if (typeof nonce === 'string') proof.nonce = nonce;
  if (typeof ath === 'string') proof.ath = ath;
  return { ok: true, proof };
}

/** One request to the token endpoint of {@link startDpopAuthorizationServer}. */
export interface SeenTokenRequest {
  /** `grant_type`. */
  grantType: string;
  /** The verified proof, when one came with the request. */
  proof?: VerifiedDpopProof;
  /** HTTP status of the answer. */
  status: number;
  /** The OAuth `error` of a refusal. */
  error?: string;
}

/** Options of {@link startDpopAuthorizationServer}. */
export interface DpopAuthorizationServerOptions {
  /**
   * Nonces (RFC 9449 §8): `none` (the default) asks for none; `required` answers a proof without
   * the current nonce `400 use_dpop_nonce` with a `DPoP-Nonce` header; `forever` answers every
   * proof so, with a new nonce each time (a hostile server).
   */
  nonce?: 'none' | 'required' | 'forever';
  /** `dpop_signing_alg_values_supported` of the metadata; `null` leaves it out. @default ['ES256'] */
  algs?: string[] | null;
  /** Scope granted. @default 'mcp:tools' */
  scope?: string;
  /** Access-token lifetime in seconds. @default 3600 */
  expiresIn?: number;
  /** How long a `refresh_token` request waits before it is answered, in milliseconds (so that concurrent clients overlap). @default 0 */
  refreshDelayMs?: number;
}

/**
 * A loopback authorization server that issues DPoP-bound tokens (RFC 9449 §5), approving
 * without a login page: metadata with `dpop_signing_alg_values_supported`, open dynamic
 * registration, `/authorize` redirecting at once, and a token endpoint for the code, refresh and
 * client-credentials grants that verifies each proof with jose, binds the token (and the refresh
 * token) to the proof's key, refuses a refresh proven with another key, and asks for nonces as
 * `nonce` says. Requests without a proof get bearer tokens.
 */
export async function startDpopAuthorizationServer(options: DpopAuthorizationServerOptions = {}): Promise<{
  url: string;
  tokenRequests: SeenTokenRequest[];
  /** The issued access tokens, with the key each is bound to. */
  tokens: Map<string, VerifiedToken & { resource: string }>;
  /** Checks an access token for the protected MCP server. */
  verifyAccessToken: (token: string) => Promise<VerifiedToken | undefined>;
  close: () => Promise<void>;
}> {
  const tokenRequests: SeenTokenRequest[] = [];
  const tokens = new Map<string, VerifiedToken & { resource: string }>();
  const refreshTokens = new Map<string, { jkt?: string; clientId: string; resource: string }>();
  const codes = new Map<string, { clientId: string; resource: string }>();
  const scope = options.scope ?? 'mcp:tools';
  let nonceCount = 0;
  const currentNonce = 'as-nonce-0';
  let base = '';
  const issue = (clientId: string, resource: string, jkt: string | undefined) => {
    const accessToken = `at-${tokens.size + 1}`;
    const refreshToken = `rt-${refreshTokens.size + 1}`;
    tokens.set(accessToken, { audience: resource, scope, clientId, resource, ...(jkt ? { jkt } : {}) });
    refreshTokens.set(refreshToken, { clientId, resource, ...(jkt ? { jkt } : {}) });
    return {
      access_token: accessToken,
      token_type: jkt ? 'DPoP' : 'Bearer',
      expires_in: options.expiresIn ?? 3600,
      refresh_token: refreshToken,
      scope,
    };
  };
  const token = async (headers: Record<string, string | string[] | undefined>, form: URLSearchParams) => {
    const seen: SeenTokenRequest = { grantType: form.get('grant_type') ?? '', status: 200 };
    tokenRequests.push(seen);
    const refuse = (error: string, extra: Record<string, string> = {}) => {
      seen.status = 400;
      seen.error = error;
      return { status: 400, headers: extra, body: { error } };
    };
    let jkt: string | undefined;
    if (headers['dpop'] !== undefined) {
      const checked = await verifyDpopProof(headers['dpop'], { htm: 'POST', htu: `${base}/token` });
      if (!checked.ok) return refuse('invalid_dpop_proof');
      seen.proof = checked.proof;
      jkt = checked.proof.jkt;
      if (options.nonce === 'forever') return refuse('use_dpop_nonce', { 'DPoP-Nonce': `as-nonce-${++nonceCount}` });
      if (options.nonce === 'required' && checked.proof.nonce !== currentNonce) {
        return refuse('use_dpop_nonce', { 'DPoP-Nonce': currentNonce });
      }
    }
    const clientId = form.get('client_id') ?? '';
    const resource = form.get('resource') ?? '';
    switch (seen.grantType) {
      case 'authorization_code': {
        const grant = codes.get(form.get('code') ?? '');
        if (!grant || grant.clientId !== clientId || grant.resource !== resource) return refuse('invalid_grant');
        codes.delete(form.get('code') ?? '');
        return { status: 200, headers: {}, body: issue(clientId, resource, jkt) };
      }
      case 'refresh_token': {
        if (options.refreshDelayMs) await new Promise((done) => setTimeout(done, options.refreshDelayMs));
        const held = refreshTokens.get(form.get('refresh_token') ?? '');
        // RFC 9449 §5: a refresh token bound to a key needs a proof of that same key.
        if (!held || held.clientId !== clientId || held.jkt !== jkt) return refuse('invalid_grant');
        return { status: 200, headers: {}, body: issue(clientId, held.resource, jkt) };
      }
      case 'client_credentials':
        return { status: 200, headers: {}, body: issue(clientId, resource, jkt) };
      default:
        return refuse('unsupported_grant_type');
    }
  };
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', base);
        const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
          res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
          res.end(JSON.stringify(body));
        };
        switch (url.pathname) {
          case '/.well-known/oauth-authorization-server':
            return send(
              200,
              authorizationServerMetadata(base, {
                grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
                token_endpoint_auth_methods_supported: ['none', 'client_secret_post', 'client_secret_basic'],
                ...(options.algs === null ? {} : { dpop_signing_alg_values_supported: options.algs ?? ['ES256'] }),
              }),
            );
          case '/register':
            return send(201, { client_id: `dpop-client-${Date.now()}`, token_endpoint_auth_method: 'none' });
          case '/authorize': {
            const code = `code-${codes.size + 1}-${Date.now()}`;
            codes.set(code, { clientId: url.searchParams.get('client_id') ?? '', resource: url.searchParams.get('resource') ?? '' });
            const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
            redirect.searchParams.set('code', code);
            redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
            res.writeHead(302, { location: redirect.href });
            res.end();
            return;
          }
          case '/token': {
            const answer = await token(req.headers, new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
            return send(answer.status, answer.body, answer.headers);
          }
          default:
            return send(404, { error: 'not_found' });
        }
      })().catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    url: base,
    tokenRequests,
    tokens,
    verifyAccessToken: (accessToken) => Promise.resolve(tokens.get(accessToken)),
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
