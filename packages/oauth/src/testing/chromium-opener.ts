import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Environment variables naming the browser to use, checked in this order. */
export const CHROMIUM_ENV_VARS = ['TOOLHOST_CHROMIUM', 'CHROME_PATH'] as const;

/** Executable names looked up on `PATH` when no environment variable names the browser. */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'] as const;

/** What to do when no browser is found (Debian's package is `chromium`; `.ci/run` installs it). */
const INSTALL_HINT =
  'Install Chromium (Debian/Ubuntu: apt-get update && apt-get install -y chromium), or set TOOLHOST_CHROMIUM (or CHROME_PATH) to a Chromium or Chrome executable.';

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium executable for the end-to-end tests: `TOOLHOST_CHROMIUM`, else `CHROME_PATH`, else
 * the first of `chromium`, `chromium-browser`, `google-chrome`, `google-chrome-stable` found on
 * `PATH`. Throws an error saying what to install when there is none, or when a variable names a
 * file that is not an executable, so the tests fail instead of being skipped.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  for (const variable of CHROMIUM_ENV_VARS) {
    const given = env[variable];
    if (given === undefined || given === '') continue;
    if (isExecutableFile(given)) return given;
    throw new Error(`${variable}=${given} is not an executable file; the OAuth end-to-end tests need a Chromium browser. ${INSTALL_HINT}`);
  }
  const folders = (env['PATH'] ?? '').split(delimiter).filter((folder) => folder !== '');
  for (const name of CHROMIUM_NAMES) {
    for (const folder of folders) {
      const candidate = join(folder, name);
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  throw new Error(
    `No Chromium found (${CHROMIUM_NAMES.join(', ')} on PATH; ${CHROMIUM_ENV_VARS.join(', ')} unset); the OAuth end-to-end tests need it. ${INSTALL_HINT}`,
  );
}

/**
 * Launches headless Chromium and returns an `openBrowser` hook that drives oidc-provider's
 * development login and consent pages until the browser lands on the callback. The browser is
 * {@link findChromium}'s; it throws when there is none, so the end-to-end test fails instead of
 * being skipped.
 */
export async function launchChromiumOpener(): Promise<{
  openBrowser: (url: string) => Promise<void>;
  landedOn: string[];
  close: () => Promise<void>;
}> {
  const browser: Browser = await chromium.launch({
    executablePath: findChromium(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const landedOn: string[] = [];
  return {
    landedOn,
    async openBrowser(url) {
      const context = await browser.newContext();
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
