import { chromiumLaunchOptions } from '@toolhost-internal/fixtures';
import { chromium, type Browser } from 'playwright-core';

/**
 * Launches headless Chromium and returns an `openBrowser` hook that drives oidc-provider's
 * development login and consent pages until the browser lands on the callback. The browser is
 * the one of `chromiumLaunchOptions` (fixtures); it throws when there is none, so the end-to-end test fails instead of
 * being skipped.
 */
export async function launchChromiumOpener(): Promise<{
  openBrowser: (url: string) => Promise<void>;
  landedOn: string[];
  close: () => Promise<void>;
}> {
  const browser: Browser = await chromium.launch(chromiumLaunchOptions());
  const landedOn: string[] = [];
  return {
    landedOn,
    async openBrowser(url) {
      const context = await browser.newContext();
      // Playwright's 30 s per step is reached by a busy machine; a real hang still fails.
      context.setDefaultTimeout(60_000);
      context.setDefaultNavigationTimeout(60_000);
      const page = await context.newPage();
      try {
        await page.goto(url);
        await page.fill('input[name=login]', 'alice');
        await page.fill('input[name=password]', 'any-password');
        await page.click('button[type=submit]');
        await page.waitForSelector('input[name=prompt][value=consent]', { state: 'attached' });
        await page.click('button[type=submit]');
        await page.waitForURL((u) => u.pathname === '/oauth/callback', { waitUntil: 'load' });
        landedOn.push(page.url());
        landedOn.push((await page.textContent('h1')) ?? '');
      } finally {
        await context.close();
      }
    },
    close: () => browser.close(),
  };
}
