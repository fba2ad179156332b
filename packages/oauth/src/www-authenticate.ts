/**
 * The parameters of a `Bearer` challenge in a `WWW-Authenticate` header (RFC 6750, RFC 9728), or
 * of a `DPoP` one (RFC 9449 §7.1: same parameters, plus `algs`).
 */
export interface BearerChallenge {
  /** `resource_metadata`: where the protected-resource metadata lives (RFC 9728 §5.1). */
  resourceMetadata?: string;
  /** `scope`: the scopes the request needs (space-separated). */
  scope?: string;
  /** `error`: e.g. `invalid_token` or `insufficient_scope`. */
  error?: string;
  /** `error_description`. */
  errorDescription?: string;
  /** True when the server offered the `DPoP` scheme (RFC 9449 §7.1): it accepts DPoP-bound tokens. */
  offersDpop?: boolean;
  /** `algs` of the `DPoP` challenge: the proof algorithms the server accepts, when it lists them. */
  dpopAlgs?: string[];
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/**
 * Parses a `WWW-Authenticate` header value and returns the parameters of its `Bearer` challenge
 * (those of its `DPoP` challenge fill what the `Bearer` one leaves out), or `undefined` when there
 * is neither. Handles several challenges, quoted strings and escapes.
 */
export function parseWwwAuthenticate(header: string | null | undefined): BearerChallenge | undefined {
  if (!header) return undefined;
  let rest = header.trim();
  let current: Record<string, string> | undefined;
  let bearer: Record<string, string> | undefined;
  let dpop: Record<string, string> | undefined;
  while (rest.length > 0) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (!name) break;
    const afterName = rest.slice(name.length).replace(/^\s+/, '');
    if (afterName.startsWith('=') && !afterName.startsWith('==')) {
      let value: string;
      let remainder = afterName.slice(1).replace(/^\s+/, '');
      if (remainder.startsWith('"')) {
        let i = 1;
        value = '';
        while (i < remainder.length && remainder[i] !== '"') {
          if (remainder[i] === '\\' && i + 1 < remainder.length) i++;
          value += remainder[i];
          i++;
        }
        remainder = remainder.slice(i + 1);
      } else {
        value = TOKEN.exec(remainder)?.[0] ?? '';
        remainder = remainder.slice(value.length);
      }
      if (current) current[name.toLowerCase()] = value;
      rest = remainder;
    } else {
      // A new auth scheme starts (possibly followed by a token68, which is skipped).
      current = {};
      if (name.toLowerCase() === 'bearer' && !bearer) bearer = current;
      if (name.toLowerCase() === 'dpop' && !dpop) dpop = current;
      rest = afterName.replace(/^[A-Za-z0-9\-._~+/]+=*(?=\s*(,|$))/, '');
    }
  }
  if (!bearer && !dpop) return undefined;
  const params = { ...dpop, ...bearer };
  const challenge: BearerChallenge = {};
  if (params.resource_metadata) challenge.resourceMetadata = params.resource_metadata;
  if (params.scope) challenge.scope = params.scope;
  if (params.error) challenge.error = params.error;
  if (params.error_description) challenge.errorDescription = params.error_description;
  if (dpop) {
    challenge.offersDpop = true;
    const algs = dpop.algs?.split(/\s+/).filter((alg) => alg !== '');
    if (algs?.length) challenge.dpopAlgs = algs;
  }
  return challenge;
}
