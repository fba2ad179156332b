import { createPrivateKey, randomUUID, sign, constants, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { McpOAuthConfig } from '@toolhost/config';
import { OAuthError } from './oauth-error.js';

/** A JWS algorithm usable for `private_key_jwt` client assertions. */
export type JwtSigningAlgorithm = 'ES256' | 'ES384' | 'ES512' | 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512';

/** The RFC 7523 `client_assertion_type` of a JWT client assertion. */
export const JWT_BEARER_CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A private key ready to sign client assertions. */
export interface ClientAssertionKey {
  /** The parsed private key. */
  key: KeyObject;
  /** The JWS algorithm used with it. */
  algorithm: JwtSigningAlgorithm;
}

const CURVE_ALGORITHMS: Record<string, JwtSigningAlgorithm> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** The algorithm a key signs with by default: ES256/384/512 by EC curve, RS256 for RSA, PS256 for RSA-PSS. */
export function defaultSigningAlgorithm(key: KeyObject): JwtSigningAlgorithm | undefined {
  if (key.asymmetricKeyType === 'ec') return CURVE_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ''];
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  if (key.asymmetricKeyType === 'rsa-pss') return 'PS256';
  return undefined;
}

function keyMatches(key: KeyObject, algorithm: JwtSigningAlgorithm): boolean {
  if (algorithm.startsWith('ES')) return defaultSigningAlgorithm(key) === algorithm;
  return key.asymmetricKeyType === 'rsa' || (algorithm.startsWith('PS') && key.asymmetricKeyType === 'rsa-pss');
}

/**
 * Loads the `private_key_jwt` key of a server entry (`oauth.privateKey`, else `oauth.privateKeyFile`)
 * and checks it against `oauth.signingAlgorithm`. Returns `undefined` when neither is set.
 *
 * @throws OAuthError `INVALID_CONFIG` when the key cannot be read or parsed, or does not fit the algorithm.
 */
export async function loadClientAssertionKey(serverName: string, oauth: McpOAuthConfig): Promise<ClientAssertionKey | undefined> {
  let pem = oauth.privateKey;
  if (pem === undefined && oauth.privateKeyFile !== undefined) {
    try {
      pem = await readFile(oauth.privateKeyFile, 'utf8');
    } catch (error) {
      throw new OAuthError({
        code: 'INVALID_CONFIG',
        message: `Could not read oauth.privateKeyFile of MCP server '${serverName}' (${oauth.privateKeyFile}): ${(error as Error).message}`,
        serverName,
        cause: error,
      });
    }
  }
  if (pem === undefined) return undefined;
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: pem, format: 'pem' });
  } catch (error) {
    throw new OAuthError({
      code: 'INVALID_CONFIG',
      message: `The private key of MCP server '${serverName}' is not a PEM private key (PKCS#8, PKCS#1 or SEC1): ${(error as Error).message}`,
      serverName,
      cause: error,
    });
  }
  const algorithm = oauth.signingAlgorithm ?? defaultSigningAlgorithm(key);
  if (!algorithm || !keyMatches(key, algorithm)) {
    throw new OAuthError({
      code: 'INVALID_CONFIG',
      message: `The private key of MCP server '${serverName}' (${key.asymmetricKeyType ?? 'unknown'} key) cannot sign ${algorithm ?? 'any supported JWS algorithm'}; use an EC P-256/P-384/P-521 or RSA key, and set oauth.signingAlgorithm to match it.`,
      serverName,
    });
  }
  return { key, algorithm };
}

/** Options of {@link createClientAssertion}. */
export interface CreateClientAssertionOptions {
  /** The client id: the assertion's `iss` and `sub`. */
  clientId: string;
  /** The authorization server's issuer identifier: the assertion's `aud`. */
  audience: string;
  /** The signing key. */
  key: ClientAssertionKey;
  /** Lifetime in seconds. @default 300 */
  lifetimeSeconds?: number;
  /** Clock, milliseconds since the epoch. @default Date.now */
  now?: () => number;
}

function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/**
 * Signs an RFC 7523 client assertion (a JWT with `iss` = `sub` = client id, `aud` = the
 * authorization server's issuer, `iat`, `exp`, a random `jti`) for `private_key_jwt`.
 *
 * @example
 * ```ts
 * const assertion = createClientAssertion({ clientId: 'svc', audience: 'https://as.example', key });
 * ```
 */
export function createClientAssertion(options: CreateClientAssertionOptions): string {
  const { algorithm, key } = options.key;
  const issuedAt = Math.floor((options.now ?? Date.now)() / 1000);
  const header = base64UrlJson({ alg: algorithm, typ: 'JWT' });
  const payload = base64UrlJson({
    iss: options.clientId,
    sub: options.clientId,
    aud: options.audience,
    iat: issuedAt,
    exp: issuedAt + (options.lifetimeSeconds ?? 300),
    jti: randomUUID(),
  });
  const signingInput = Buffer.from(`${header}.${payload}`);
  const hash = `sha${algorithm.slice(2)}`;
  const signature = algorithm.startsWith('ES')
    ? sign(hash, signingInput, { key, dsaEncoding: 'ieee-p1363' })
    : algorithm.startsWith('PS')
      ? sign(hash, signingInput, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_DIGEST })
      : sign(hash, signingInput, key);
  return `${header}.${payload}.${signature.toString('base64url')}`;
}
