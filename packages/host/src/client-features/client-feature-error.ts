const CLIENT_FEATURE_ERROR_BRAND = Symbol.for('toolhost.client-feature');

/** Stable codes of {@link ClientFeatureError}; match on these, never on the message. */
export type ClientFeatureErrorCode =
  /** The server does not declare the capability the request needs (`logging`, `resources.subscribe`...). */
  | 'CAPABILITY_NOT_SUPPORTED'
  /** A project folder could not be turned into a `file://` root. */
  | 'INVALID_ROOT'
  /** A resource listing kept paginating (repeated cursor or too many pages). */
  | 'RESOURCE_LIST_FAILED'
  /** `resources/read` failed or returned nothing. */
  | 'RESOURCE_READ_FAILED'
  /** An `@server:uri` reference names a server the host does not know. */
  | 'UNKNOWN_SERVER';

/** Structured fields carried by a {@link ClientFeatureError}. */
export interface ClientFeatureErrorOptions {
  /** The stable code. */
  readonly code: ClientFeatureErrorCode;
  /** What happened and what the user can do. */
  readonly message: string;
  /** The MCP server involved, when there is one. */
  readonly serverName?: string;
  /** The MCP method involved (`sampling/createMessage`, `resources/read`...), when there is one. */
  readonly method?: string;
  /** The resource URI involved, when there is one. */
  readonly uri?: string;
  /** The underlying error. */
  readonly cause?: unknown;
}

/**
 * The error family of the client-side MCP features (sampling, elicitation, roots, logging,
 * resources, completions). Each error has a stable {@link ClientFeatureErrorCode}.
 *
 * @example
 * ```ts
 * try { await setLogLevel(client, { serverName: 'docs', level: 'debug' }); }
 * catch (e) { if (ClientFeatureError.isInstance(e) && e.code === 'CAPABILITY_NOT_SUPPORTED') skip(); }
 * ```
 */
export class ClientFeatureError extends Error {
  /** The stable code. */
  readonly code: ClientFeatureErrorCode;
  /** The MCP server involved, when there is one. */
  readonly serverName?: string;
  /** The MCP method involved, when there is one. */
  readonly method?: string;
  /** The resource URI involved, when there is one. */
  readonly uri?: string;
  private readonly [CLIENT_FEATURE_ERROR_BRAND] = true;

  constructor(options: ClientFeatureErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ClientFeatureError';
    this.code = options.code;
    if (options.serverName !== undefined) this.serverName = options.serverName;
    if (options.method !== undefined) this.method = options.method;
    if (options.uri !== undefined) this.uri = options.uri;
  }

  /** True for any `ClientFeatureError`, even one from another copy of this package. */
  static isInstance(error: unknown): error is ClientFeatureError {
    return (
      typeof error === 'object' &&
      error !== null &&
      (error as Record<symbol, unknown>)[CLIENT_FEATURE_ERROR_BRAND] === true
    );
  }
}
