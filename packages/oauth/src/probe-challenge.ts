import type { FetchFunction } from './guarded-fetch.js';
import { parseWwwAuthenticate, type BearerChallenge } from './www-authenticate.js';

const PROTOCOL_VERSION = '2025-11-25';
const INITIALIZE_PROBE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'toolhost-oauth-probe', version: '0' } },
});
const TOOLS_LIST_PROBE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
/** MCP 2026-07-28 has no `initialize`: every request carries its revision; `server/discover` is the first one a client sends. */
const MODERN_PROTOCOL_VERSION = '2026-07-28';
const SERVER_DISCOVER_PROBE = JSON.stringify({
  jsonrpc: '2.0',
  id: 2,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
      'io.modelcontextprotocol/clientInfo': { name: 'toolhost-oauth-probe', version: '0' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

/** Options of {@link probeChallenge}. */
export interface ProbeChallengeOptions {
  /** URL of the MCP server. */
  serverUrl: string;
  /** HTTP client. */
  fetch: FetchFunction;
  /** The entry's extra headers. */
  headers?: Record<string, string>;
  /** Cancels the probe. */
  signal?: AbortSignal;
}

type ProbeOutcome = { status: number; challenge: BearerChallenge | undefined; sessionId: string | null } | undefined;

async function send(options: ProbeChallengeOptions, init: RequestInit): Promise<ProbeOutcome> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  try {
    const response = await options.fetch(options.serverUrl, { ...init, signal: controller.signal, redirect: 'manual' });
    const outcome = {
      status: response.status,
      challenge: parseWwwAuthenticate(response.headers.get('www-authenticate')),
      sessionId: response.headers.get('mcp-session-id'),
    };
    controller.abort(); // headers are all the probe needs; do not wait for an SSE stream
    return outcome;
  } catch {
    return undefined; // unreachable, or not this transport
  } finally {
    options.signal?.removeEventListener('abort', abort);
  }
}

const isChallenge = (outcome: ProbeOutcome): boolean => outcome?.status === 401 || outcome?.status === 403;

/**
 * Asks an MCP server, without credentials, how it wants to be authorized, and returns the
 * `Bearer` challenge of the first 401/403: a Streamable HTTP `initialize` POST; when the server
 * lets `initialize` through (some protect only later requests), a `tools/list` POST in that
 * session (which is then ended with a DELETE); when it refuses `initialize` with another 4xx than
 * 404/405 (a server that speaks only MCP 2026-07-28, which has no `initialize`), a 2026-07-28
 * `server/discover` POST; otherwise an SSE GET. Returns `undefined` when the server sends no
 * challenge (discovery then uses well-known URLs, and scopes come from `scopes_supported`).
 */
export async function probeChallenge(options: ProbeChallengeOptions): Promise<BearerChallenge | undefined> {
  const post = { ...options.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = await send(options, { method: 'POST', headers: post, body: INITIALIZE_PROBE });
  if (isChallenge(initialize)) return initialize?.challenge ?? {};
  if (initialize && initialize.status >= 200 && initialize.status < 300) {
    const session: Record<string, string> = { 'mcp-protocol-version': PROTOCOL_VERSION };
    if (initialize.sessionId) session['mcp-session-id'] = initialize.sessionId;
    const list = await send(options, { method: 'POST', headers: { ...post, ...session }, body: TOOLS_LIST_PROBE });
    if (initialize.sessionId) await send(options, { method: 'DELETE', headers: { ...options.headers, ...session } });
    return isChallenge(list) ? (list?.challenge ?? {}) : undefined;
  }
  if (initialize && initialize.status >= 400 && initialize.status < 500 && initialize.status !== 404 && initialize.status !== 405) {
    const modern = { 'mcp-protocol-version': MODERN_PROTOCOL_VERSION, 'mcp-method': 'server/discover' };
    const discover = await send(options, { method: 'POST', headers: { ...post, ...modern }, body: SERVER_DISCOVER_PROBE });
    if (isChallenge(discover)) return discover?.challenge ?? {};
  }
  const sse = await send(options, { method: 'GET', headers: { ...options.headers, accept: 'text/event-stream' } });
  return isChallenge(sse) ? (sse?.challenge ?? {}) : undefined;
}
