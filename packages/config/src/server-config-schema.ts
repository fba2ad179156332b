import { isAbsolute } from 'node:path';
import { escapeControlText } from '@toolhost/contract';
import { z } from 'zod';
import { describeInvalidClientMetadataUrl } from './describe-invalid-client-metadata-url.js';
import { describeInvalidHeader } from './describe-invalid-header.js';

/** Transport names accepted in a server entry's `type` field. */
export const TRANSPORT_TYPES = ['stdio', 'sse', 'http'] as const;

/** How a remote server is authenticated. */
export const AUTH_PROVIDER_TYPES = ['dynamic_discovery', 'google_credentials', 'service_account_impersonation'] as const;

/** Values of `oauth.grantType`. */
export const OAUTH_GRANT_TYPES = ['authorization_code', 'client_credentials', 'enterprise_managed', 'jwt_bearer'] as const;

/** The `oauth` fields that say where the workload identity token of `grantType: 'jwt_bearer'` comes from. */
const WORKLOAD_ASSERTION_FIELDS = ['assertionFile', 'assertionEnv', 'assertion'] as const;

/** A portable environment variable name: letters, digits and `_`, not starting with a digit. */
const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Values of `oauth.tokenEndpointAuthMethod`. */
export const TOKEN_ENDPOINT_AUTH_METHODS = ['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt'] as const;

/** Values of `oauth.signingAlgorithm` (JWS algorithms of `private_key_jwt` assertions). */
export const JWT_SIGNING_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'] as const;

/** Default request timeout for a server, in milliseconds (10 minutes). */
export const DEFAULT_MCP_TIMEOUT_MS = 600_000;

const stringRecord = z.record(z.string(), z.string());

/** A NUL character, which no process argument, environment variable or path can hold. */
const NUL = '\u0000';

/**
 * `headers`: each one must be sendable (see `describeInvalidHeader`). The issue names the header,
 * never its value (a credential); `fetch` would have refused it later quoting the whole value.
 */
const headersRecord = stringRecord.superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    const problem = describeInvalidHeader(name, value);
    if (problem)
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `the header "${escapeControlText(name, { maxLength: 100 })}" cannot be sent: ${problem} (the value is not shown, it may be a secret)`,
      });
  }
});

/** `env`: names and values without NUL, which a process environment cannot hold (the value is never quoted). */
const environmentRecord = stringRecord.superRefine((env, ctx) => {
  for (const [name, value] of Object.entries(env)) {
    if (name.includes(NUL) || value.includes(NUL))
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: `the environment variable "${escapeControlText(name, { maxLength: 100 })}" has a NUL character in its ${name.includes(NUL) ? 'name' : 'value'}, which a process environment cannot hold (the value is not shown, it may be a secret)`,
      });
  }
});

/** `args`: without NUL, which a process argument cannot hold (an argument may be a token: never quoted). */
const argumentList = z.array(z.string()).superRefine((args, ctx) => {
  args.forEach((arg, index) => {
    if (arg.includes(NUL))
      ctx.addIssue({ code: 'custom', path: [index], message: 'this argument has a NUL character, which a process argument cannot hold' });
  });
});

/**
 * `url` and `httpUrl`: a URL with a user name or password (`https://user:secret@host/`) is refused,
 * since `fetch` will not send one; the message does not quote it.
 */
const serverUrl = z.string().refine((value) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value.trim()), {
  message:
    'the URL has a user name or password in it ("user:password@"), which HTTP clients do not send; remove it and put the credentials in "headers" (for example "Authorization")',
});

/** The fields of the `oauth` block (see {@link McpOAuthConfigSchema}). */
const OAuthConfigFields = z.looseObject({
  /** Start the OAuth flow for this server when it is connected. */
  enabled: z.boolean().optional(),
  /** A pre-registered client id; without it the client uses a metadata document or dynamic registration. */
  clientId: z.string().optional(),
  /** The secret of a pre-registered confidential client. */
  clientSecret: z.string().optional(),
  /** Authorization endpoint, when it cannot be discovered. */
  authorizationUrl: z.string().optional(),
  /** Token endpoint, when it cannot be discovered. */
  tokenUrl: z.string().optional(),
  /** Issuer of the authorization server, when it cannot be discovered. */
  issuer: z.string().optional(),
  /** Dynamic client registration endpoint, when it cannot be discovered. */
  registrationUrl: z.string().optional(),
  /** Scopes to request. */
  scopes: z.array(z.string()).optional(),
  /** Audiences to request a token for. */
  audiences: z.array(z.string()).optional(),
  /** Redirect URI of the loopback callback; default `http://localhost:7777/oauth/callback`. */
  redirectUri: z.string().optional(),
  /** Query parameter name that carries the token for SSE servers that want it in the URL. */
  tokenParamName: z.string().optional(),
  /**
   * Accept an authorization server that does not advertise `code_challenge_methods_supported`
   * (PKCE S256 is still used). Off by default: such servers are refused.
   */
  allowMissingPkceSupport: z.boolean().optional(),
  /**
   * Allow endpoints learned from server metadata to point at private or loopback addresses
   * even when the MCP server itself is public. Meant for local development only.
   */
  allowPrivateNetwork: z.boolean().optional(),
  /**
   * How the token is obtained. `authorization_code` (the default) signs the user in through the
   * browser; `client_credentials` is machine-to-machine (SEP-1046: `clientId` with `clientSecret`
   * or `privateKey`); `enterprise_managed` exchanges an enterprise IdP's ID token for an ID-JAG and
   * that for an access token (MCP Enterprise-Managed Authorization, "Cross App Access", SEP-990;
   * see `idp`); `jwt_bearer` is workload identity (SEP-1933, RFC 7523 `jwt-bearer` grant): the
   * token the workload's platform issued it (a Kubernetes projected service-account token, a
   * SPIFFE JWT-SVID, a cloud identity token) is the credential, read from `assertionFile`,
   * `assertionEnv` or `assertion` on every grant. @default 'authorization_code'
   */
  grantType: z.enum(OAUTH_GRANT_TYPES).optional(),
  /**
   * For `grantType: 'jwt_bearer'`: absolute path of the file holding the workload identity token
   * (a JWT), for example a Kubernetes projected service-account token. Read again on every grant,
   * since the platform rotates it.
   */
  assertionFile: z.string().optional(),
  /** For `grantType: 'jwt_bearer'`: name of the environment variable holding the workload identity token, read on every grant. */
  assertionEnv: z.string().optional(),
  /** For `grantType: 'jwt_bearer'`: the workload identity token itself; prefer `assertionFile`, since such tokens expire. */
  assertion: z.string().optional(),
  /**
   * How the client authenticates at the token endpoint; chosen from the client and the server's
   * `token_endpoint_auth_methods_supported` when absent (`private_key_jwt` when `privateKey` is set).
   */
  tokenEndpointAuthMethod: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).optional(),
  /** PKCS#8 PEM private key for `private_key_jwt` client authentication (RFC 7523); prefer `privateKeyFile` in settings files. */
  privateKey: z.string().optional(),
  /** Path of a PKCS#8 PEM private key file for `private_key_jwt`, when `privateKey` is not set. */
  privateKeyFile: z.string().optional(),
  /** JWS algorithm of the `private_key_jwt` assertion; derived from the key when absent (ES256 for P-256, RS256 for RSA). */
  signingAlgorithm: z.enum(JWT_SIGNING_ALGORITHMS).optional(),
  /**
   * DPoP (RFC 9449, the MCP DPoP extension): `true` binds every token to a key pair of this client
   * and proves possession of it on each request; `false` never does; `auto` (the default) does when
   * the protected-resource metadata requires it (`dpop_bound_access_tokens_required`), or when the
   * authorization server advertises `dpop_signing_alg_values_supported` and the MCP server's
   * challenge offers the `DPoP` scheme.
   */
  dpop: z.union([z.boolean(), z.literal('auto')], { error: 'oauth.dpop must be true, false or "auto"' }).optional(),
  /** URL of this client's Client ID Metadata Document (https, with a path), used when the authorization server supports it. */
  clientMetadataUrl: z
    .string()
    .superRefine((value, ctx) => {
      const problem = describeInvalidClientMetadataUrl(value);
      if (problem)
        ctx.addIssue({
          code: 'custom',
          message: `oauth.clientMetadataUrl must be an https URL with a path, without "." or ".." segments, a fragment, or a user name or password (where this client's Client ID Metadata Document is served), e.g. "https://example.com/oauth/client.json", but ${problem}`,
        });
    })
    .optional(),
  /** The enterprise identity provider of `grantType: 'enterprise_managed'`. */
  idp: z
    .looseObject({
      /** Issuer of the IdP; its token endpoint is discovered (RFC 8414 / OpenID) when `tokenUrl` is absent. */
      issuer: z.string().optional(),
      /** Token endpoint of the IdP (RFC 8693 token exchange). */
      tokenUrl: z.string().optional(),
      /** This client's id at the IdP. */
      clientId: z.string(),
      /** This client's secret at the IdP, for a confidential client. */
      clientSecret: z.string().optional(),
      /** The user's OpenID Connect ID token from single sign-on; a host normally supplies it at runtime (`idpIdToken` of `authenticate`). */
      idToken: z.string().optional(),
    })
    .optional(),
});

/**
 * The `oauth` block of a server entry.
 *
 * Every field is optional: with none set, the client discovers the authorization server
 * from the MCP server itself (RFC 9728, RFC 8414, OpenID discovery). The workload identity
 * fields are checked together (see `grantType: 'jwt_bearer'`).
 */
export const McpOAuthConfigSchema = OAuthConfigFields.superRefine(checkWorkloadAssertion);

/**
 * The MCP revisions a server entry may pin with `protocolVersion`, newest first. `2026-07-28` is
 * the first revision of the modern era (`server/discover`, per-request `_meta`, no sessions);
 * the others are negotiated with `initialize`.
 */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

/** A value of `protocolVersion`. */
export type McpProtocolVersion = (typeof MCP_PROTOCOL_VERSIONS)[number];

/**
 * One entry of `mcpServers`: how to start or reach an MCP server and how far to trust it.
 *
 * Exactly one of `command` (stdio), `url` (SSE or Streamable HTTP, see `type`) or
 * `httpUrl` (Streamable HTTP) is expected. Unknown fields are kept and reported as warnings.
 */
export const McpServerConfigSchema = z.looseObject({
  /** Executable that starts a stdio server. */
  command: z
    .string()
    .refine((value) => !value.includes(NUL), { message: 'the command has a NUL character, which a process name cannot hold' })
    .optional(),
  /** Arguments passed to `command`. */
  args: argumentList.optional(),
  /** Environment variables for the stdio child, expanded and passed as given. */
  env: environmentRecord.optional(),
  /** Working directory of the stdio child. */
  cwd: z.string().optional(),
  /** URL of a remote server; the transport comes from `type`, or is detected. */
  url: serverUrl.optional(),
  /** URL of a Streamable HTTP server (takes priority over `url`). */
  httpUrl: serverUrl.optional(),
  /** Extra HTTP headers sent with every request to a remote server (valid HTTP names and values). */
  headers: headersRecord.optional(),
  /** Transport for `url`: `sse` or `http`; `stdio` is accepted for `command` entries. */
  type: z.enum(TRANSPORT_TYPES).optional(),
  /** Request timeout in milliseconds. @default 600000 */
  timeout: z.number().int().positive().optional(),
  /**
   * Pin the MCP revision spoken with this server (one of {@link MCP_PROTOCOL_VERSIONS}). Without
   * it the revision is negotiated: `2026-07-28` through `server/discover` where the server speaks
   * it, else the newest the server accepts in `initialize`. A toolhost extension; Gemini CLI and
   * Qwen Code ignore it.
   */
  protocolVersion: z.enum(MCP_PROTOCOL_VERSIONS).optional(),
  /** Skip confirmation for every tool of this server. @default false */
  trust: z.boolean().optional(),
  /** Only these tools are registered (`name` or `name(...)`). */
  includeTools: z.array(z.string()).optional(),
  /** These tools are never registered; wins over `includeTools`. */
  excludeTools: z.array(z.string()).optional(),
  /** A human-readable description of the server. */
  description: z.string().optional(),
  /** OAuth settings for a remote server. */
  oauth: McpOAuthConfigSchema.optional(),
  /** How the server is authenticated. @default 'dynamic_discovery' */
  authProviderType: z.enum(AUTH_PROVIDER_TYPES).optional(),
  /** OAuth client id used as the audience for service-account impersonation. */
  targetAudience: z.string().optional(),
  /** Service account to impersonate (`name@project.iam.gserviceaccount.com`). */
  targetServiceAccount: z.string().optional(),
});

/** A validated `mcpServers` entry. */
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;
/** A validated `oauth` block of a server entry. */
export type McpOAuthConfig = z.infer<typeof McpOAuthConfigSchema>;
/** A transport name of `type`. */
export type McpTransportType = (typeof TRANSPORT_TYPES)[number];
/** A value of `authProviderType`. */
export type AuthProviderType = (typeof AUTH_PROVIDER_TYPES)[number];

/**
 * Checks the workload identity fields: `grantType: 'jwt_bearer'` needs exactly one of
 * `assertionFile` (absolute path), `assertionEnv` (a variable name) or `assertion` (not empty), and
 * those fields are refused with any other grant type (where they would be silently unused).
 */
function checkWorkloadAssertion(
  oauth: { grantType?: string | undefined } & Partial<Record<(typeof WORKLOAD_ASSERTION_FIELDS)[number], string | undefined>>,
  ctx: z.RefinementCtx,
): void {
  const set = WORKLOAD_ASSERTION_FIELDS.filter((field) => oauth[field] !== undefined);
  if (oauth.grantType !== 'jwt_bearer') {
    for (const field of set) {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `oauth.${field} is the workload identity token of grantType "jwt_bearer", but grantType is ${oauth.grantType === undefined ? 'not set (authorization_code)' : `"${oauth.grantType}"`}; set "grantType": "jwt_bearer" to use it, or remove it`,
      });
    }
    return;
  }
  if (set.length === 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['grantType'],
      message:
        'grantType "jwt_bearer" needs the workload identity token: set one of oauth.assertionFile (a file the platform keeps current, such as a Kubernetes projected service-account token), oauth.assertionEnv (an environment variable) or oauth.assertion',
    });
    return;
  }
  for (const field of set.slice(1)) {
    ctx.addIssue({
      code: 'custom',
      path: [field],
      message: `set only one of oauth.assertionFile, oauth.assertionEnv and oauth.assertion (oauth.${set[0]} is set too)`,
    });
  }
  const value = oauth[set[0]!] ?? '';
  if (value.trim() === '') {
    ctx.addIssue({
      code: 'custom',
      path: [set[0]!],
      message: `oauth.${set[0]} is empty; it must ${set[0] === 'assertion' ? 'be the workload identity token' : set[0] === 'assertionFile' ? 'be the path of the file holding the workload identity token' : 'name the environment variable holding the workload identity token'} (if it came from a $VARIABLE, see the UNSET_ENV_VAR warning)`,
    });
  } else if (set[0] === 'assertionFile' && !isAbsolute(value)) {
    ctx.addIssue({
      code: 'custom',
      path: ['assertionFile'],
      message: `oauth.assertionFile must be an absolute path (such as /var/run/secrets/tokens/mcp-token), not "${value}"`,
    });
  } else if (set[0] === 'assertionEnv' && !ENV_VAR_NAME.test(value)) {
    ctx.addIssue({
      code: 'custom',
      path: ['assertionEnv'],
      // The value is not shown: a "$NAME" written here was already replaced by the variable's value, maybe the token.
      message:
        'oauth.assertionEnv must be the name of an environment variable (letters, digits and _), such as "MCP_WORKLOAD_TOKEN", written without "$" (a $NAME reference is replaced by the value of the variable when the settings are read)',
    });
  }
}
