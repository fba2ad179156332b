import { AuthorizationServerMismatchError, IssuerMismatchError } from '@modelcontextprotocol/client';
import { authCommandHint, OAuthError } from './oauth-error.js';

/**
 * True when two issuer identifiers name the same authorization server: identical strings, or
 * strings that differ only by one trailing slash (`https://as.example` and `https://as.example/`
 * build the same well-known URL). This is the one tolerance the MCP SDK applies too; there is no
 * other normalisation (case, default port, percent-encoding).
 */
export function issuersMatch(a: string, b: string): boolean {
  return a === b || (a.endsWith('/') && a.slice(0, -1) === b) || (b.endsWith('/') && b.slice(0, -1) === a);
}

/** An issuer value from a server, safe to put in a message (quoted, control characters escaped, cut at 200 characters). */
function quote(value: string | undefined): string {
  return value === undefined ? '(none)' : JSON.stringify(value.slice(0, 200));
}

/**
 * Checks the `issuer` of authorization-server metadata against the issuer identifier the
 * well-known URL was built from (RFC 8414 §3.3, OpenID Connect Discovery §4.3, required by MCP
 * 2026-07-28): they must be identical, else the metadata must not be used. Returns the issuer.
 *
 * @throws OAuthError `ISSUER_MISMATCH` (its `cause` the SDK's `IssuerMismatchError` of kind
 * `metadata`) when the metadata has no `issuer` or another one.
 */
export function assertMetadataIssuer(options: {
  /** Name of the server entry. */
  serverName: string;
  /** The issuer identifier the metadata URL was built from. */
  expectedIssuer: string;
  /** Where `expectedIssuer` came from, for the message. @default 'authorization_servers' */
  expectedFrom?: ExpectedIssuerSource;
  /** The metadata document's `issuer`, as found. */
  received: unknown;
  /** Where the metadata was fetched. */
  metadataUrl: string;
}): string {
  const { expectedIssuer, received } = options;
  if (typeof received === 'string' && issuersMatch(received, expectedIssuer)) return received;
  const mismatch = new IssuerMismatchError('metadata', expectedIssuer, typeof received === 'string' ? received : undefined);
  const context = {
    serverName: options.serverName,
    url: options.metadataUrl,
    expectedFrom: options.expectedFrom ?? 'authorization_servers',
  };
  throw oauthErrorFromSdk(mismatch, context) ?? mismatch;
}

/**
 * Where the issuer identifier that authorization-server metadata is checked against came from:
 * - `authorization_servers`: the protected-resource metadata of the MCP server (RFC 9728);
 * - `oauth.issuer`: the server entry;
 * - `server-origin`: the MCP server's origin, for a server without protected-resource metadata
 *   (or without `authorization_servers` in it). MCP 2025-03-26 makes that origin the
 *   authorization server ("authorization base URL"), so it is the issuer identifier its metadata
 *   must name, as in the MCP TypeScript SDK (`discoverOAuthServerInfo`).
 */
export type ExpectedIssuerSource = 'authorization_servers' | 'oauth.issuer' | 'server-origin';

/** The explanation and the advice of an `ISSUER_MISMATCH` for metadata, by where the expected issuer came from. */
function metadataMismatchAdvice(
  source: ExpectedIssuerSource,
  server: string,
  expected: string | undefined,
  received: string | undefined,
): string {
  switch (source) {
    case 'oauth.issuer':
      return (
        `The issuer was set as oauth.issuer in the server entry: check that it is the authorization server's exact issuer identifier ` +
        `(the metadata is looked up at the RFC 8414 location built from it), and do not sign in until the two agree.`
      );
    case 'server-origin':
      return (
        `${server} publishes no protected resource metadata naming an authorization server, so (MCP 2025-03-26) its origin ${quote(expected)} ` +
        `is its authorization server, and metadata served at that origin must name it as issuer. ` +
        `Ask the operator of ${server} to publish protected resource metadata (RFC 9728) listing the authorization server's issuer, or to serve metadata whose issuer is ${quote(expected)}. ` +
        (received === undefined
          ? `Do not sign in to it until then.`
          : `If the operator confirms that ${quote(received)} is the issuer, set oauth.issuer to it in the server entry; do not sign in until then.`)
      );
    default:
      return (
        `Either the server's protected resource metadata lists the authorization server under another name than its issuer, or another server is posing as it: ` +
        `ask the operator of ${server} to list the exact issuer in authorization_servers, and do not sign in to it until then.`
      );
  }
}

/**
 * Maps the MCP SDK's issuer errors to {@link OAuthError} (the SDK error becomes the `cause`):
 * `IssuerMismatchError` to `ISSUER_MISMATCH`, `AuthorizationServerMismatchError` (client
 * credentials bound to another authorization server) to `INVALID_CONFIG`. Returns `undefined`
 * for any other error. `context.expectedFrom` says where the expected issuer of a metadata
 * mismatch came from, which decides the advice (see {@link ExpectedIssuerSource}).
 */
export function oauthErrorFromSdk(
  error: unknown,
  context: { serverName?: string | undefined; url?: string; expectedFrom?: ExpectedIssuerSource; authCommand?: string | undefined },
): OAuthError | undefined {
  const { serverName } = context;
  const server = serverName === undefined ? 'the MCP server' : `MCP server '${serverName}'`;
  if (IssuerMismatchError.isInstance(error)) {
    if (error.kind === 'metadata') {
      return new OAuthError({
        code: 'ISSUER_MISMATCH',
        message:
          `The authorization server metadata of ${server}${context.url ? ` (${context.url})` : ''} names the issuer ${quote(error.received)}, ` +
          `but it was discovered for the issuer ${quote(error.expected)}; RFC 8414 requires the two to be identical, so the metadata was not used and no request was sent to its endpoints. ` +
          metadataMismatchAdvice(context.expectedFrom ?? 'authorization_servers', server, error.expected, error.received),
        serverName,
        url: context.url,
        cause: error,
      });
    }
    // RFC 9207: the `iss` of a callback is attacker-controlled in a mix-up attack, so it is not repeated.
    return new OAuthError({
      code: 'ISSUER_MISMATCH',
      message:
        `The OAuth callback for ${server} ${error.received === undefined ? 'has no iss parameter, although its authorization server promises one' : 'names another authorization server'} ` +
        `(expected the issuer ${quote(error.expected)}, RFC 9207); the authorization code was not used. Authenticate again; if this repeats, something is interfering with the sign-in.`,
      serverName,
      cause: error,
    });
  }
  if (AuthorizationServerMismatchError.isInstance(error)) {
    const { recordedIssuer, currentIssuer } = error;
    return new OAuthError({
      code: 'INVALID_CONFIG',
      message:
        `${serverName === undefined ? 'The MCP server' : server} now names the authorization server ${quote(currentIssuer)}, but its configured client (oauth.clientId) belongs to ${quote(recordedIssuer)}, ` +
        `and client credentials are never reused with another authorization server. Register a client with ${quote(currentIssuer)} and set oauth.clientId (and oauth.clientSecret), ` +
        `or, if the configured client is registered there too, set oauth.issuer to ${quote(currentIssuer)}; then ${authCommandHint(serverName ?? '<server>', context.authCommand)}.`,
      serverName,
      cause: error,
    });
  }
  return undefined;
}
