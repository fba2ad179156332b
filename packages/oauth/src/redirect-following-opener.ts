import type { FetchFunction } from './guarded-fetch.js';
import { OAuthError } from './oauth-error.js';
import { assertBrowserSafeUrl, type OpenBrowser } from './open-browser.js';

/**
 * An `openBrowser` hook for non-interactive runs (CI, conformance suites, authorization servers
 * that approve without a login page): it GETs the authorization URL and follows the redirects
 * to the loopback callback, as a browser would. Fails when the chain does not end at the
 * request's `redirect_uri`, for instance because the server shows a login page.
 */
export function createRedirectFollowingOpener(options: { fetch?: FetchFunction } = {}): OpenBrowser {
  const fetchFn: FetchFunction = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return async (url) => {
    const parsed = assertBrowserSafeUrl(url);
    const redirectUri = parsed.searchParams.get('redirect_uri');
    const response = await fetchFn(parsed, { redirect: 'follow' });
    await response.body?.cancel().catch(() => undefined);
    if (!redirectUri || !response.url.startsWith(redirectUri)) {
      throw new OAuthError(
        `The authorization server did not redirect back to ${redirectUri ?? 'the callback'} without user interaction (ended at ${response.url || 'an unknown URL'} with HTTP ${response.status}); use an interactive browser.`,
        { code: 'BROWSER_OPEN_FAILED', url },
      );
    }
  };
}
