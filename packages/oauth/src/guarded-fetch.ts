import type { LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type * as Undici from 'undici';
import type { UrlGuard } from './url-guard.js';

/**
 * The `fetch` signature this package uses. The default is {@link createPinnedFetch} for requests
 * to URLs the URL guard checked and `globalThis.fetch` for the others. A `fetch` passed in options
 * replaces both: it resolves host names itself, so the guard's DNS-rebinding protection does not
 * reach it (see {@link createPinnedFetch}).
 */
export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

// undici takes about 0.2 s to load: only a pinned request loads it.
let undiciModule: Promise<typeof Undici> | undefined;
const loadUndici = (): Promise<typeof Undici> => (undiciModule ??= import('undici'));

function notVetted(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}: the URL guard vetted no address of this host`);
  error.code = 'ENOTFOUND';
  return error;
}

/**
 * An HTTP client that connects to the addresses `guard` vetted instead of resolving host names
 * again. The URL guard resolves the host of every URL learned from a public MCP server and refuses
 * private, loopback and link-local addresses; a plain `fetch` would then resolve the name a second
 * time, and a DNS server that answers with a public address first and `127.0.0.1` next (DNS
 * rebinding) would get the request into the local network. Here a request to a host name with
 * {@link UrlGuard.vettedAddresses} goes through an undici `Agent` whose DNS lookup answers with
 * those addresses only, and fails for any other host name (a redirect the caller did not check
 * cannot leave them either). TLS still verifies the certificate for the host name: SNI and the
 * `Host` header are those of the URL, only the IP address is fixed.
 *
 * Every other request goes to `globalThis.fetch` unchanged: URLs the guard did not check (the MCP
 * server's own URLs, configured endpoints, IP literals) and every URL when the guard restricts
 * nothing (a private MCP server, or `allowPrivateNetwork`).
 *
 * `authenticate()` and `StoredTokenOAuthProvider` use it as their default `fetch`. A `fetch`
 * passed in their options is called instead, as given: this cannot pin an arbitrary `fetch`
 * (a proxy, for one, resolves names itself), so with a custom `fetch` the check still refuses
 * URLs that resolve to private addresses, but a rebinding answer between the check and the
 * request is that `fetch`'s to handle.
 *
 * @example
 * ```ts
 * const guard = createUrlGuard({ serverName, mcpServerUrl });
 * const discovery = await discoverAuthorizationServer({ serverName, serverUrl: mcpServerUrl, guard, fetch: createPinnedFetch(guard) });
 * ```
 */
export function createPinnedFetch(guard: UrlGuard): FetchFunction {
  const lookup: LookupFunction = (hostname, options, callback) => {
    const vetted = guard.vettedAddresses?.(hostname) ?? [];
    const family = options.family === 4 || options.family === 6 ? options.family : undefined;
    const addresses: LookupAddress[] = vetted
      .map((address) => ({ address, family: isIP(address) }))
      .filter((entry) => entry.family !== 0 && (family === undefined || entry.family === family));
    const first = addresses[0];
    if (!first) callback(notVetted(hostname), '', 0);
    else if (options.all) callback(null, addresses);
    else callback(null, first.address, first.family);
  };
  let agent: Undici.Agent | undefined;
  const pinnedFetch = async (input: string | URL, init: RequestInit | undefined): Promise<Response> => {
    const { Agent, fetch } = await loadUndici();
    agent ??= new Agent({ connect: { lookup } });
    const pinnedInit = { ...init, dispatcher: agent } as unknown as Undici.RequestInit;
    return (await fetch(input, pinnedInit)) as unknown as Response;
  };
  return (input, init) => {
    let hostname: string | undefined;
    try {
      hostname = new URL(input instanceof URL ? input.href : input).hostname;
    } catch {
      // globalThis.fetch reports the unusable URL.
    }
    if (hostname === undefined || isIP(hostname) || !guard.vettedAddresses?.(hostname)) return globalThis.fetch(input, init);
    return pinnedFetch(input, init);
  };
}

const MAX_REDIRECTS = 3;

/**
 * Fetches `url` and follows at most three redirects by hand, so that every hop goes through
 * the URL guard (a metadata URL must not redirect the client into a private network).
 */
export async function guardedFetch(options: {
  url: URL;
  init?: RequestInit;
  fetch: FetchFunction;
  guard: UrlGuard;
  what: string;
}): Promise<Response> {
  let url = options.url;
  for (let hop = 0; ; hop++) {
    const response = await options.fetch(url, { ...options.init, redirect: 'manual' });
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location || hop >= MAX_REDIRECTS) return response;
    await response.body?.cancel().catch(() => undefined);
    url = await options.guard.check(new URL(location, url).href, `redirect of ${options.what}`);
    // A redirect turns a POST into a GET only for 301-303; keep it simple and never replay a body.
    if (options.init?.method && options.init.method !== 'GET') return response;
  }
}

/** Reads a JSON object body, or returns `undefined` when the body is not a JSON object. */
export async function readJsonObject(response: Response): Promise<Record<string, unknown> | undefined> {
  try {
    const value: unknown = await response.json();
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
