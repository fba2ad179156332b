import type { FetchFunction } from './guarded-fetch.js';
import { parseWwwAuthenticate, type BearerChallenge } from './www-authenticate.js';

const INITIALIZE_PROBE = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'toolhost-oauth-probe', version: '0' } },
});

/**
 * Asks an MCP server, without credentials, how it wants to be authorized: a Streamable HTTP
 * `initialize` POST, then an SSE GET, and returns the `Bearer` challenge of the first 401/403.
 * Returns `undefined` when the server sends no challenge (discovery then uses well-known URLs).
 */
export async function probeChallenge(options: {
  serverUrl: string;
  fetch: FetchFunction;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}): Promise<BearerChallenge | undefined> {
  const attempts: RequestInit[] = [
    { method: 'POST', headers: { ...options.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: INITIALIZE_PROBE },
    { method: 'GET', headers: { ...options.headers, accept: 'text/event-stream' } },
  ];
  for (const init of attempts) {
    const controller = new AbortController();
    const abort = () => controller.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      const response = await options.fetch(options.serverUrl, { ...init, signal: controller.signal, redirect: 'manual' });
      const challenge = parseWwwAuthenticate(response.headers.get('www-authenticate'));
      controller.abort();
      if (response.status === 401 || response.status === 403) return challenge ?? {};
      if (response.ok) return undefined;
    } catch {
      // Unreachable or not this transport: try the next probe.
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
  }
  return undefined;
}
