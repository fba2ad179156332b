import type { McpServerConfig } from '@toolhost/config';
import { escapeControlText, maskUrl } from '@toolhost/contract';
import { TransportError } from './transport-error.js';

/** The transport a server entry resolves to. */
export type TransportKind = 'stdio' | 'sse' | 'http';

/** Where and how to reach a server, decided from its entry alone. */
export type TransportTarget =
  | { kind: 'stdio'; command: string }
  | { kind: 'sse'; url: URL }
  /** `detectSse`: a `url` without `type`, which falls back to legacy SSE on 400/404/405. */
  | { kind: 'http'; url: URL; detectSse: boolean };

function parseUrl(serverName: string, field: 'url' | 'httpUrl', value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // Quoted masked, and without the parser's error as cause (it keeps the whole input): a URL
    // may carry a password or a token in its query.
    throw invalid(serverName, `"${field}" is not a valid URL: '${escapeControlText(maskUrl(value), { maxLength: 300 })}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(serverName, `"${field}" must be an http:// or https:// URL, not '${escapeControlText(url.protocol, { maxLength: 50 })}'`);
  }
  if (url.username || url.password) {
    throw invalid(
      serverName,
      `"${field}" has a user name or password in it, which HTTP clients do not send; remove it and put the credentials in "headers" (for example "Authorization")`,
    );
  }
  return url;
}

function invalid(serverName: string, detail: string, cause?: unknown): TransportError {
  return new TransportError({
    code: 'INVALID_CONFIG',
    message: `MCP server '${escapeControlText(serverName)}': ${detail}.`,
    serverName,
    cause,
  });
}

/**
 * Decides the transport: `httpUrl` → Streamable HTTP; `url` with `type: 'sse'` → SSE; `url` with
 * `type: 'http'` → Streamable HTTP; `url` without `type` → Streamable HTTP with SSE detection;
 * `command` → stdio. Remote settings win over `command` when both are present.
 * @throws TransportError `INVALID_CONFIG` when the entry names no usable transport, or a URL with
 * a user name or password (which `fetch` refuses, quoting it).
 */
export function resolveTransportKind(serverName: string, config: McpServerConfig): TransportTarget {
  if (config.httpUrl) return { kind: 'http', url: parseUrl(serverName, 'httpUrl', config.httpUrl), detectSse: false };
  if (config.url) {
    const url = parseUrl(serverName, 'url', config.url);
    if (config.type === 'sse') return { kind: 'sse', url };
    if (config.type === 'http') return { kind: 'http', url, detectSse: false };
    if (config.type === 'stdio' && !config.command) throw invalid(serverName, '"type" is "stdio" but there is no "command"');
    if (config.type === undefined) return { kind: 'http', url, detectSse: true };
  }
  if (config.authProviderType === 'google_credentials' || config.authProviderType === 'service_account_impersonation') {
    throw invalid(serverName, `"authProviderType": "${config.authProviderType}" needs "url" or "httpUrl"`);
  }
  if (config.command) return { kind: 'stdio', command: config.command };
  throw invalid(serverName, 'missing "httpUrl" (Streamable HTTP), "url" (Streamable HTTP or SSE) and "command" (stdio); set one of them');
}
