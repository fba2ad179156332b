import type { FetchFunction } from './guarded-fetch.js';
import { OAuthError } from './oauth-error.js';
import { assertBrowserSafeUrl, type OpenBrowser } from './open-browser.js';
import { parseSafeHttpUrl } from './url-guard.js';

/** Redirects followed at most, as browsers cap them too. */
const MAX_REDIRECTS = 10;

/**
 * An `openBrowser` hook for non-interactive runs (CI, conformance suites, authorization servers
 * that approve without a login page): it GETs the authorization URL and follows the redirects
 * to the loopback callback, as a browser would. Redirects are followed by hand and may only stay
 * on the authorization server's origin or go to the `redirect_uri`'s origin, so a hostile server
 * cannot make this process fetch other (for instance internal) addresses. Fails when the chain
 * does not end at the request's `redirect_uri`, for instance because the server shows a login page.
 */
export function createRedirectFollowingOpener(options: { fetch?: FetchFunction } = {}): OpenBrowser {
  const fetchFn: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return async (url) => {
    const parsed = assertBrowserSafeUrl(url);
    const redirectUri = parsed.searchParams.get('redirect_uri');
    const allowedOrigins = new Set([parsed.origin]);
    if (redirectUri) allowedOrigins.add(parseSafeHttpUrl(redirectUri, { what: 'redirect_uri of the authorization URL' }).origin);
    let current = parsed;
    for (let hop = 0; ; hop++) {
      const response = await fetchFn(current, { redirect: 'manual' });
      await response.body?.cancel().catch(() => undefined);
      const location = response.headers.get('location');
      const atCallback = redirectUri !== null && current.href.startsWith(redirectUri);
      if (!atCallback && response.status >= 300 && response.status < 400 && location && hop < MAX_REDIRECTS) {
        const next = parseSafeHttpUrl(new URL(location, current).href, { what: 'redirect of the authorization URL' });
        if (!allowedOrigins.has(next.origin)) {
          throw new OAuthError({
            code: 'UNSAFE_URL',
            message: `Refused to follow a redirect of the authorization URL to ${next.origin}: the non-interactive opener only follows redirects within ${[...allowedOrigins].join(' and ')}; use an interactive browser.`,
            url: next.href,
          });
        }
        current = next;
        continue;
      }
      if (!atCallback) {
        throw new OAuthError({
          code: 'BROWSER_OPEN_FAILED',
          message: `The authorization server did not redirect back to ${redirectUri ?? 'the callback'} without user interaction (ended at ${current.href} with HTTP ${response.status}); use an interactive browser.`,
          url,
        });
      }
      return;
    }
  };
}
