import { readFile } from 'node:fs/promises';
import type { McpOAuthConfig } from '@toolhost/config';
import { OAuthError } from './oauth-error.js';

/** Options of {@link readWorkloadIdentityToken}. */
export interface ReadWorkloadIdentityTokenOptions {
  /** Name of the server entry, for messages. */
  serverName: string;
  /** The `oauth` block of the entry (`assertionFile`, `assertionEnv` or `assertion`). */
  oauth: McpOAuthConfig;
  /** Environment read for `assertionEnv`. @default process.env */
  env?: Readonly<Record<string, string | undefined>>;
}

/** A compact JWS (three base64url parts) or JWE (five). */
const COMPACT_JWT = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]*){2}(?:\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)?$/;

function invalid(serverName: string, message: string, cause?: unknown): OAuthError {
  return new OAuthError({ code: 'INVALID_CONFIG', message, serverName, ...(cause !== undefined ? { cause } : {}) });
}

/**
 * Reads the workload identity token of a `grantType: 'jwt_bearer'` entry, fresh each time (the
 * platform rotates it): the file `oauth.assertionFile` (for example a Kubernetes projected
 * service-account token), else the environment variable `oauth.assertionEnv`, else the literal
 * `oauth.assertion`. Surrounding whitespace is removed; the result must look like a compact JWT.
 * The token itself never appears in an error message.
 *
 * @example
 * ```ts
 * const assertion = await readWorkloadIdentityToken({ serverName: 'tools', oauth: { grantType: 'jwt_bearer', assertionFile: '/var/run/secrets/tokens/mcp' } });
 * ```
 *
 * @throws OAuthError `INVALID_CONFIG` naming the server and the file or variable when the token is
 * not configured, cannot be read, is empty, or is not a JWT.
 */
export async function readWorkloadIdentityToken(options: ReadWorkloadIdentityTokenOptions): Promise<string> {
  const { serverName, oauth } = options;
  let token: string;
  let source: string;
  if (oauth.assertionFile !== undefined) {
    source = `the file ${oauth.assertionFile} (oauth.assertionFile)`;
    let text: string;
    try {
      text = await readFile(oauth.assertionFile, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : (error as Error).message;
      throw invalid(
        serverName,
        `Could not read the workload identity token of MCP server '${serverName}' from ${source}: ${reason}. Check that the token file is mounted at this path (for Kubernetes, the projected service-account token volume) and readable by this process.`,
        error,
      );
    }
    token = text.trim();
    if (token === '') {
      throw invalid(
        serverName,
        `The workload identity token file ${oauth.assertionFile} of MCP server '${serverName}' (oauth.assertionFile) is empty; the platform has not written the token yet, or the path names the wrong file.`,
      );
    }
  } else if (oauth.assertionEnv !== undefined) {
    source = `the environment variable ${oauth.assertionEnv} (oauth.assertionEnv)`;
    token = ((options.env ?? process.env)[oauth.assertionEnv] ?? '').trim();
    if (token === '') {
      throw invalid(
        serverName,
        `The environment variable ${oauth.assertionEnv} named by oauth.assertionEnv of MCP server '${serverName}' is not set or empty; it must hold the workload identity token (a JWT).`,
      );
    }
  } else if (oauth.assertion !== undefined && oauth.assertion.trim() !== '') {
    source = 'oauth.assertion';
    token = oauth.assertion.trim();
  } else {
    throw invalid(
      serverName,
      `MCP server '${serverName}' uses grantType "jwt_bearer" but has no workload identity token: set oauth.assertionFile, oauth.assertionEnv or oauth.assertion.`,
    );
  }
  if (!COMPACT_JWT.test(token)) {
    throw invalid(
      serverName,
      `The workload identity token of MCP server '${serverName}' in ${source} is not a JWT (expected three or five base64url parts separated by dots).`,
    );
  }
  return token;
}
