import type { LoadedServer } from '@toolhost/config';
import { McpServerStatus, probeServer, probeTimeoutMs, type StderrEvent, type TransportOptions } from '@toolhost/discovery';
import { createAuthProvider, type TokenStore } from '@toolhost/oauth';
import { usesOAuthSignIn } from './auth-status-rows.js';
import type { ServerConnectionCheck, ServerConnectionResult } from './server-status.js';

/** Options of {@link createProbeConnectionCheck}. */
export interface ProbeConnectionCheckOptions {
  /** Where `toolhost mcp auth` stored OAuth tokens; a remote server with a stored token is probed with it. */
  readonly tokenStore: TokenStore;
  /** Environment a stdio server inherits (cleaned of secrets by the transport). @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Timeout of a server whose entry has no `timeout`, in milliseconds. @default 5000 (60000 for `npx`, `uvx`..., see `probeTimeoutMs`) */
  readonly defaultTimeoutMs?: number;
  /**
   * The command named in "needs authentication" reasons, without the server name
   * (`toolhost --app-dir .gemini mcp auth`). @default 'toolhost mcp auth'
   */
  readonly authCommand?: string;
  /**
   * Called with each stderr line of a probed stdio server (raw: escape it before printing), at
   * most 100 a second per server, the rest as a `dropped` count; `--debug` prints them.
   */
  readonly onStderr?: (serverName: string, event: StderrEvent) => void;
}

/** How long a probed stdio server gets to exit after stdin is closed, then after SIGTERM. */
const PROBE_CLOSE_GRACE_MS = 500;

/** Codes (of the probe error or its cause) that mean the server wants the user to sign in. */
const AUTH_CODES = new Set(['AUTH_REQUIRED', 'REFRESH_FAILED', 'STEP_UP_LIMIT']);

/**
 * The live check of `mcp list`: one real connection attempt through `probeServer` of
 * `@toolhost/discovery` (initialize, then a ping whose failure is ignored), closed right away.
 * The timeout is the entry's `timeout`, else 5000 ms as in Gemini CLI, or 60000 ms for a command
 * started through a package runner (`npx -y …`, `uvx`...), whose first start may download the
 * package; such a runner is let finish its install when the probe closes it. A remote server with a
 * stored OAuth token (or a Google `authProviderType`) gets its OAuth provider; no browser flow
 * ever starts: a server that needs a sign-in is reported as disconnected with a hint.
 */
export function createProbeConnectionCheck(options: ProbeConnectionCheckOptions): ServerConnectionCheck {
  const authCommand = options.authCommand ?? 'toolhost mcp auth';
  return async (server: LoadedServer): Promise<ServerConnectionResult> => {
    const transportOptions: TransportOptions = {
      // A probe has nothing to save: a stdio server that ignores the end of stdin is stopped sooner.
      closeGraceMs: PROBE_CLOSE_GRACE_MS,
      ...(options.env ? { env: options.env } : {}),
      ...(options.onStderr ? { onStderr: (event: StderrEvent) => options.onStderr?.(server.name, event) } : {}),
      ...(await authOptions(server, options.tokenStore, authCommand)),
    };
    const result = await probeServer(server.name, server.config, {
      timeoutMs: probeTimeoutMs(server.config, options.defaultTimeoutMs),
      clientInfo: { name: 'toolhost-mcp-list', version: '0.0.1' },
      transportOptions,
    });
    if (result.status === McpServerStatus.CONNECTED) {
      return { state: 'connected', ...(result.protocolVersion ? { protocolVersion: result.protocolVersion } : {}) };
    }
    const error = result.error;
    // A refresh that failed for a passing reason kept the credentials: say what happened, not "sign in".
    const transient = error?.causeCode === 'REFRESH_FAILED' && error.causeRetryable === true;
    if (transient) {
      return {
        state: 'disconnected',
        reason: 'the OAuth token could not be refreshed just now (the stored credentials were kept): try again later.',
      };
    }
    if (error && (AUTH_CODES.has(error.code) || AUTH_CODES.has(error.causeCode ?? ''))) {
      return { state: 'disconnected', reason: `needs authentication: run "${authCommand} ${server.name}".`, needsAuthentication: true };
    }
    return { state: 'disconnected', reason: error?.message, ...(error?.detail ? { detail: error.detail } : {}) };
  };
}

async function authOptions(
  server: LoadedServer,
  tokenStore: TokenStore,
  authCommand: string,
): Promise<Pick<TransportOptions, 'authProvider'>> {
  if (server.transport.transport === 'stdio') return {};
  // Without a stored token no provider is passed: a 401 then fails at once as AUTH_REQUIRED.
  // (Google `authProviderType`s need no stored token: their provider gets credentials itself.)
  if (usesOAuthSignIn(server) && !(await tokenStore.get(server.name).catch(() => undefined))) return {};
  return { authProvider: createAuthProvider({ serverName: server.name, config: server.config, tokenStore, authCommand }) };
}
