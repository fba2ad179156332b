import type { UrlGuard } from './url-guard.js';

/** The `fetch` signature this package uses; defaults to `globalThis.fetch`. */
export type FetchFunction = (input: string | URL, init?: RequestInit) => Promise<Response>;

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
