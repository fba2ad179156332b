import { createRedirectFollowingOpener, openBrowserSafely, type OpenBrowser } from '@toolhost/oauth';
import { CliError } from './cli-error.js';

/**
 * FOR TESTS ONLY, not a user setting: `TOOLHOST_TEST_BROWSER=follow-redirects` makes
 * `toolhost mcp auth <name>` "open" the authorization URL with the non-interactive
 * `createRedirectFollowingOpener()` of `@toolhost/oauth` (a GET that follows the redirects to the
 * loopback callback) instead of a real browser, so the built binary can be tested end to end
 * against an authorization server that approves without a login page.
 */
export const TEST_BROWSER_VARIABLE = 'TOOLHOST_TEST_BROWSER';

/** The browser opener of `mcp auth`: the safe default opener, or the test-only one of {@link TEST_BROWSER_VARIABLE}. */
export function selectBrowserOpener(env: Readonly<Record<string, string | undefined>>): OpenBrowser {
  const value = env[TEST_BROWSER_VARIABLE];
  if (value === undefined || value === '') return (url) => openBrowserSafely(url);
  if (value === 'follow-redirects') return createRedirectFollowingOpener();
  throw new CliError({
    code: 'INVALID_ENVIRONMENT',
    message: `${TEST_BROWSER_VARIABLE} is "${value}"; the only value it takes is "follow-redirects" (for tests). Unset it to use the browser.`,
  });
}
