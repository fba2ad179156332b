import { escapeControlText } from '@toolhost/contract';

/** A network failure in the user's words: what happened and what to do. */
export interface NetworkFailure {
  /** The system or TLS code it was recognised by (`ECONNREFUSED`, `ENOTFOUND`, `CERT_HAS_EXPIRED`...). */
  readonly code: string;
  /** What happened (`connection refused at 127.0.0.1:1234`). */
  readonly what: string;
  /** What the user can do about it. */
  readonly advice: string;
}

/** Errors looked at below the one thrown: causes, and the attempts of an `AggregateError` (IPv4 and IPv6). */
const MAX_ERRORS_SEEN = 20;

const CERTIFICATE_CODES: Readonly<Record<string, string>> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends in a self-signed certificate that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its issuer is not known',
  UNABLE_TO_GET_ISSUER_CERT: 'its issuer is not known',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its issuer is not known',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it was issued for another host name',
  CERT_REVOKED: 'it was revoked',
  CERT_UNTRUSTED: 'it is not trusted',
};

const TLS_HANDSHAKE_CODES = new Set([
  'EPROTO',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  'ERR_SSL_PACKET_LENGTH_TOO_LONG',
  'ERR_SSL_HTTP_REQUEST',
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
]);

/** Every error below `error`: its `cause` chain and the `errors` of an `AggregateError`, breadth first, bounded. */
function errorsBelow(error: unknown): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  const queue: unknown[] = [error];
  const seen = new Set<unknown>();
  while (queue.length > 0 && found.length < MAX_ERRORS_SEEN) {
    const current = queue.shift();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const record = current as Record<string, unknown>;
    found.push(record);
    queue.push(record['cause']);
    if (Array.isArray(record['errors'])) queue.push(...(record['errors'] as unknown[]).slice(0, 5));
  }
  return found;
}

/** `host:port` of the failed connection: from the error when it says, else from the URL. */
function endpoint(error: Record<string, unknown>, url: URL | undefined): string {
  const address = typeof error['address'] === 'string' ? error['address'] : undefined;
  const port = typeof error['port'] === 'number' ? error['port'] : undefined;
  if (address !== undefined)
    return escapeControlText(`${address.includes(':') ? `[${address}]` : address}${port !== undefined ? `:${port}` : ''}`);
  if (!url) return 'the server';
  const defaultPort = url.protocol === 'https:' ? '443' : '80';
  return escapeControlText(`${url.hostname}:${url.port || defaultPort}`);
}

/**
 * Recognises the common reasons a connection to a remote server failed, anywhere in the `cause`
 * chain of `error` (`fetch` throws "fetch failed" with the system error as its cause; Node's
 * dual-stack connect throws an `AggregateError` of both attempts): refused, host not found (DNS),
 * timed out, reset, unreachable, certificate not trusted, TLS handshake failed. `undefined` when
 * none applies.
 *
 * @example
 * describeNetworkFailure(fetchError, new URL('http://127.0.0.1:1234/mcp'));
 * // { code: 'ECONNREFUSED', what: 'connection refused at 127.0.0.1:1234', advice: 'Start the server, ...' }
 */
export function describeNetworkFailure(error: unknown, url: URL | undefined): NetworkFailure | undefined {
  const host = url ? escapeControlText(url.hostname, { maxLength: 200 }) : 'the server';
  for (const candidate of errorsBelow(error)) {
    const code = typeof candidate['code'] === 'string' ? candidate['code'] : undefined;
    if (code === undefined) continue;
    const at = endpoint(candidate, url);
    if (code === 'ECONNREFUSED') {
      return {
        code,
        what: `connection refused at ${at}`,
        advice: 'Nothing listens there: start the server, or fix the host and port of its URL.',
      };
    }
    if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'EAI_NODATA') {
      return { code, what: `the host '${host}' was not found (DNS)`, advice: 'Check the host name in its URL, and your network or VPN.' };
    }
    if (code === 'EAI_AGAIN' || code === 'EAI_FAIL') {
      return {
        code,
        what: `the host name '${host}' could not be looked up (DNS)`,
        advice: 'Check your network connection and DNS, then try again.',
      };
    }
    if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return {
        code,
        what: `the connection to ${at} timed out`,
        advice: 'Check the URL, your network, and any proxy or firewall on the way.',
      };
    }
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
      return {
        code,
        what: `the connection to ${at} was closed before the server answered`,
        advice: 'Check that the URL points at an MCP server (http:// or https://, host and port), or try again.',
      };
    }
    if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') {
      return { code, what: `${at} cannot be reached from this machine`, advice: 'Check the URL and your network or VPN.' };
    }
    const certificate = CERTIFICATE_CODES[code];
    if (certificate !== undefined) {
      return {
        code,
        what: `the TLS certificate of '${host}' was not accepted: ${certificate}`,
        advice:
          'Check the host name in its URL; for a server with a certificate of a private authority, give that authority to Node.js with NODE_EXTRA_CA_CERTS.',
      };
    }
    if (TLS_HANDSHAKE_CODES.has(code)) {
      return {
        code,
        what: `the TLS handshake with ${at} failed`,
        advice: 'If the server does not use TLS, write its URL with http:// instead of https://; else check its port.',
      };
    }
  }
  return undefined;
}
