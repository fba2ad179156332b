import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateAuthorizationResponseIssuer } from '@modelcontextprotocol/client';
import { oauthErrorFromSdk } from './issuer.js';
import { escapeControlText } from '@toolhost/contract';
import { OAuthError } from './oauth-error.js';

/** The redirect URI used when the server entry sets none. */
export const DEFAULT_REDIRECT_URI = 'http://localhost:7777/oauth/callback';

/** How long the callback server waits for the browser, in milliseconds (5 minutes). */
export const DEFAULT_CALLBACK_TIMEOUT_MS = 300_000;

/** Options of {@link startCallbackServer}. */
export interface CallbackServerOptions {
  /** The redirect URI; its port and path are served on the loopback interface. @default DEFAULT_REDIRECT_URI */
  redirectUri?: string;
  /** The `state` sent with the authorization request. */
  expectedState: string;
  /** When the port is taken, listen on a port chosen by the OS instead (dynamically registered clients). @default false */
  allowFallbackPort?: boolean;
  /** Give up after this many milliseconds; the timer never keeps the process alive. @default 300000 */
  timeoutMs?: number;
  /** Cancels the wait. */
  signal?: AbortSignal;
  /** Server name for messages. */
  serverName?: string;
  /** RFC 9207: an `iss` parameter must equal this issuer. */
  expectedIssuer?: string;
  /** RFC 9207: the server promises `iss`, so a callback without it is refused. @default false */
  requireIssuer?: boolean;
}

/** A running loopback callback server. */
export interface CallbackServer {
  /** The redirect URI actually served (its port may differ from the requested one). */
  readonly redirectUri: string;
  /** Resolves with the authorization code, or rejects with `OAuthError`. */
  waitForCode(): Promise<string>;
  /** Stops listening; safe to call more than once. */
  close(): Promise<void>;
}

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, detail: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></body></html>`;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Starts the loopback server that receives the authorization response. It binds the loopback
 * interface only, serves the redirect URI's path (other paths get 404), checks `state`, reports
 * an `error` parameter, escapes everything it echoes, and gives up after `timeoutMs`.
 */
export async function startCallbackServer(options: CallbackServerOptions): Promise<CallbackServer> {
  const requested = new URL(options.redirectUri ?? DEFAULT_REDIRECT_URI);
  const defaultPort = requested.protocol === 'https:' ? 443 : 80;
  const requestedPort = requested.port ? Number(requested.port) : defaultPort;
  const hostname = requested.hostname.replace(/^\[|\]$/g, '');
  const bindHosts = hostname === 'localhost' ? ['127.0.0.1', '::1'] : [hostname === '::1' ? '::1' : '127.0.0.1'];
  let settle: { resolve: (code: string) => void; reject: (error: unknown) => void } | undefined;
  const result = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => undefined);
  let settled = false;
  const finish = (error: unknown, code?: string) => {
    if (settled) return;
    settled = true;
    if (error) settle?.reject(error);
    else settle?.resolve(code ?? '');
  };
  const serverName = options.serverName;
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const send = (status: number, title: string, detail: string) => {
      response.writeHead(status, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
        'content-security-policy': "default-src 'none'",
        connection: 'close',
      });
      response.end(page(title, detail));
    };
    if (url.pathname !== requested.pathname) return send(404, 'Not found', 'This is not the OAuth callback path.');
    const state = url.searchParams.get('state');
    const error = url.searchParams.get('error');
    if (state !== options.expectedState) {
      send(400, 'Authentication failed', 'The state parameter does not match this login attempt.');
      return finish(
        new OAuthError({
          code: 'STATE_MISMATCH',
          message: `The OAuth callback${serverName ? ` for MCP server '${serverName}'` : ''} carried a state that does not match this login (possible CSRF); authenticate again.`,
          serverName,
        }),
      );
    }
    // RFC 9207 as MCP 2026-07-28 applies it, by the SDK's check (no-op without an expected issuer).
    try {
      validateAuthorizationResponseIssuer({
        iss: url.searchParams.get('iss') ?? undefined,
        expectedIssuer: options.expectedIssuer || undefined,
        issParameterSupported: options.requireIssuer === true,
      });
    } catch (mismatch) {
      send(400, 'Authentication failed', 'The response comes from an unexpected authorization server.');
      return finish(oauthErrorFromSdk(mismatch, { serverName }) ?? (mismatch as Error));
    }
    if (error) {
      const description = url.searchParams.get('error_description') ?? '';
      send(400, 'Authentication failed', `${error}${description ? `: ${description}` : ''}`);
      return finish(
        new OAuthError({
          code: 'AUTHORIZATION_DENIED',
          message: `The authorization server refused the login${serverName ? ` for MCP server '${serverName}'` : ''}: ${escapeControlText(JSON.stringify(error.slice(0, 100)))}${description ? ` (${escapeControlText(JSON.stringify(description.slice(0, 300)))})` : ''}.`,
          serverName,
          oauthErrorCode: error,
        }),
      );
    }
    const code = url.searchParams.get('code');
    if (!code) return send(400, 'Authentication failed', 'The callback has no authorization code.');
    send(200, 'Authentication complete', 'You can close this window and return to the application.');
    finish(undefined, code);
  };
  const servers: Server[] = [];
  const primary = createServer(handler);
  const listenError = (error: unknown) =>
    new OAuthError({
      code: 'CALLBACK_PORT_IN_USE',
      message: `Could not listen for the OAuth callback on ${requested.host}: ${(error as Error).message}. Free the port or set oauth.redirectUri to another loopback port.`,
      serverName,
      url: requested.href,
      cause: error,
    });
  let port: number;
  try {
    port = await listen(primary, requestedPort, bindHosts[0]!);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || !options.allowFallbackPort) throw listenError(error);
    port = await listen(primary, 0, bindHosts[0]!).catch((fallbackError: unknown) => {
      throw listenError(fallbackError);
    });
  }
  servers.push(primary);
  for (const host of bindHosts.slice(1)) {
    const extra = createServer(handler);
    // The second loopback family is best effort: some machines have no ::1.
    await listen(extra, port, host).then(
      () => servers.push(extra),
      () => undefined,
    );
  }
  const actual = new URL(requested.href);
  actual.port = String(port);
  const timer = setTimeout(
    () =>
      finish(
        new OAuthError({
          code: 'CALLBACK_TIMEOUT',
          message: `No OAuth callback arrived${serverName ? ` for MCP server '${serverName}'` : ''} within ${Math.round((options.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS) / 1000)} s; authenticate again.`,
          serverName,
        }),
      ),
    options.timeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
  );
  timer.unref();
  const onAbort = () =>
    finish(new OAuthError({ code: 'CANCELLED', message: 'The OAuth flow was cancelled.', serverName, cause: options.signal?.reason }));
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const close = async () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    finish(new OAuthError({ code: 'CANCELLED', message: 'The OAuth callback server was closed.', serverName }));
    await Promise.all(servers.map(closeServer));
  };
  return {
    redirectUri: actual.href,
    waitForCode: () => result,
    close,
  };
}
