// DPoP (RFC 9449, the MCP DPoP extension SEP-1932): when to use it, the key pair of a client
// registration and the signing session built from it. Proofs are signed by the MCP SDK's
// `DpopSession` (jose underneath); keys are generated, exported and imported with jose.
import { DPOP_SUPPORTED_ALGS, DpopSession, type DpopAlg, type DpopKeyPair } from '@modelcontextprotocol/client';
import type * as Jose from 'jose';
import { authCommandHint, OAuthError } from './oauth-error.js';
import type { StoredDpopKey } from './token-store.js';
import type { BearerChallenge } from './www-authenticate.js';

/** `oauth.dpop`: `true` always sends DPoP proofs, `false` never, `auto` (the default) when both servers support it. */
export type DpopSetting = boolean | 'auto';

/** The algorithm of a new DPoP key when the servers accept it (or say nothing): ES256. */
export const DEFAULT_DPOP_ALGORITHM: DpopAlg = 'ES256';

// jose (46 modules) is loaded by the first DPoP key, thumbprint or session, not by importing this
// package: most servers use bearer tokens. It is an ES-module-only package, so the CommonJS build
// must import() it too.
let joseModule: Promise<typeof Jose> | undefined;
const loadJose = (): Promise<typeof Jose> => (joseModule ??= import('jose'));

/** The algorithms toolhost signs proofs with, in order of preference (compact, widely supported first). */
const PREFERENCE: readonly DpopAlg[] = ['ES256', 'ES384', 'ES512', 'EdDSA', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'];

/** What {@link planDpop} decides from. */
export interface PlanDpopInput {
  /** Name of the server entry, for messages. */
  serverName: string;
  /** The entry's `oauth.dpop`. @default 'auto' */
  setting?: DpopSetting | undefined;
  /** `dpop_signing_alg_values_supported` of the authorization server metadata, when advertised. */
  authorizationServerAlgs?: readonly string[] | undefined;
  /** `dpop_bound_access_tokens_required` of the protected-resource metadata (RFC 9728). */
  resourceRequiresDpop?: boolean | undefined;
  /** The MCP server's 401/403 challenge, when there was one. */
  challenge?: BearerChallenge | undefined;
}

function isSupported(alg: string): alg is DpopAlg {
  return (DPOP_SUPPORTED_ALGS as readonly string[]).includes(alg);
}

/**
 * Whether a token request uses DPoP, and with which algorithm (`undefined`: a bearer token).
 *
 * - `oauth.dpop: false`: never.
 * - `true`: always.
 * - `auto` (the default): when the protected-resource metadata says
 *   `dpop_bound_access_tokens_required`, or when the authorization server advertises
 *   `dpop_signing_alg_values_supported` **and** the MCP server's challenge offers the `DPoP`
 *   scheme (RFC 9449 §7.1), that is when both sides accept DPoP-bound tokens. An authorization
 *   server that supports DPoP in front of an MCP server that only reads `Bearer` keeps bearer tokens.
 *
 * The algorithm is the first of ES256, ES384, ES512, EdDSA, PS256..., RS256... that the
 * authorization server (and the challenge's `algs`) accept.
 *
 * @throws OAuthError `INVALID_METADATA` when DPoP must be used but the authorization server
 * accepts no algorithm toolhost can sign with.
 */
export function planDpop(input: PlanDpopInput): { alg: DpopAlg } | undefined {
  const setting = input.setting ?? 'auto';
  if (setting === false) return undefined;
  const asAlgs = input.authorizationServerAlgs?.filter((alg) => alg !== 'none');
  const advertised = asAlgs !== undefined && asAlgs.length > 0;
  const wanted = setting === true || input.resourceRequiresDpop === true || (advertised && input.challenge?.offersDpop === true);
  if (!wanted) return undefined;
  let candidates = PREFERENCE.filter((alg) => !advertised || asAlgs.includes(alg));
  const rsAlgs = input.challenge?.dpopAlgs;
  if (rsAlgs && candidates.some((alg) => rsAlgs.includes(alg))) candidates = candidates.filter((alg) => rsAlgs.includes(alg));
  const alg = candidates[0];
  if (alg) return { alg };
  throw new OAuthError({
    code: 'INVALID_METADATA',
    message: `The authorization server of MCP server '${input.serverName}' accepts DPoP proofs signed with ${asAlgs?.join(', ')} only, none of which toolhost can sign with (${PREFERENCE.join(', ')}). Set "oauth": { "dpop": false } to use bearer tokens if the MCP server accepts them.`,
    serverName: input.serverName,
  });
}

/** Generates the DPoP key pair of a client registration (ES256 unless another algorithm is given). */
export async function generateDpopKey(alg: DpopAlg = DEFAULT_DPOP_ALGORITHM): Promise<StoredDpopKey> {
  const { generateKeyPair, exportJWK } = await loadJose();
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, privateJwk: { ...(await exportJWK(privateKey)) } };
}

/** The public members of a private JWK, by key type. */
const PUBLIC_MEMBERS: Record<string, readonly string[]> = {
  EC: ['kty', 'crv', 'x', 'y'],
  RSA: ['kty', 'n', 'e'],
  OKP: ['kty', 'crv', 'x'],
};

function publicJwkOf(privateJwk: Record<string, unknown>): Jose.JWK {
  const members = PUBLIC_MEMBERS[String(privateJwk['kty'])];
  if (!members) throw new Error(`unsupported key type ${JSON.stringify(privateJwk['kty'])}`);
  return Object.fromEntries(members.map((name) => [name, privateJwk[name]])) as Jose.JWK;
}

/**
 * The RFC 7638 SHA-256 thumbprint of a stored DPoP key: the `cnf.jkt` an authorization server
 * binds its tokens to.
 */
export function dpopKeyThumbprint(key: StoredDpopKey): Promise<string> {
  const publicJwk = publicJwkOf(key.privateJwk);
  return loadJose().then(({ calculateJwkThumbprint }) => calculateJwkThumbprint(publicJwk, 'sha256'));
}

/**
 * A signing session (the MCP SDK's `DpopSession`: fresh `jti` and `iat` per proof, `ath` for an
 * access token, the server-supplied nonces remembered per origin) for a stored key. The private
 * key is imported as non-extractable.
 *
 * @throws OAuthError `STORE_FAILED` when the stored key is not a usable private key.
 */
export async function createDpopSession(key: StoredDpopKey, serverName: string): Promise<DpopSession> {
  const { calculateJwkThumbprint, importJWK } = await loadJose();
  try {
    if (!isSupported(key.alg)) throw new Error(`unsupported algorithm ${JSON.stringify(key.alg)}`);
    const publicJwk = publicJwkOf(key.privateJwk);
    const keyPair: DpopKeyPair = {
      privateKey: (await importJWK(key.privateJwk as Jose.JWK, key.alg, { extractable: false })) as DpopKeyPair['privateKey'],
      publicKey: (await importJWK(publicJwk, key.alg)) as DpopKeyPair['publicKey'],
      publicJwk,
      thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256'),
      alg: key.alg,
    };
    return await DpopSession.create({ keyPair });
  } catch (error) {
    throw new OAuthError({
      code: 'STORE_FAILED',
      message: `The stored DPoP key of MCP server '${serverName}' is not usable (${(error as Error).message}); ${authCommandHint(serverName)} to get a new key and token.`,
      serverName,
      cause: error,
    });
  }
}

/** Sessions of stored keys, one per key, so that the nonces a server supplied are remembered. */
export class DpopSessionCache {
  #key: string | undefined;
  #session: Promise<DpopSession> | undefined;

  /** The session of `key`, created once per key. */
  get(key: StoredDpopKey, serverName: string): Promise<DpopSession> {
    const id = JSON.stringify([key.alg, key.privateJwk['d'], key.privateJwk['x'], key.privateJwk['n']]);
    if (this.#key !== id || !this.#session) {
      this.#key = id;
      this.#session = createDpopSession(key, serverName);
      this.#session.catch(() => {
        if (this.#key === id) this.#session = undefined;
      });
    }
    return this.#session;
  }
}
