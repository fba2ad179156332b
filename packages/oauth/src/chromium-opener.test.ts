import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findChromium } from './testing/chromium-opener.js';

// Where the OAuth end-to-end tests find their browser: an environment variable, else PATH; none
// at all is a failure that says what to install, never a silent skip.
let root: string;
let first: string;
let second: string;

async function executable(path: string): Promise<string> {
  await writeFile(path, '#!/bin/sh\n');
  await chmod(path, 0o755);
  return path;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolhost-chromium-'));
  first = join(root, 'first');
  second = join(root, 'second');
  await mkdir(first);
  await mkdir(second);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('findChromium', () => {
  it('finds chromium, chromium-browser or google-chrome on PATH, in that order of names', async () => {
    const chrome = await executable(join(first, 'google-chrome'));
    const PATH = [first, second].join(delimiter);
    expect(findChromium({ PATH })).toBe(chrome);
    const browser = await executable(join(second, 'chromium-browser'));
    expect(findChromium({ PATH })).toBe(browser);
    const chromium = await executable(join(second, 'chromium'));
    expect(findChromium({ PATH })).toBe(chromium);
  });

  it('skips a file on PATH that is not executable', async () => {
    await writeFile(join(first, 'chromium'), '');
    const chrome = await executable(join(second, 'google-chrome'));
    expect(findChromium({ PATH: [first, second].join(delimiter) })).toBe(chrome);
  });

  it('takes TOOLHOST_CHROMIUM, then CHROME_PATH, over PATH', async () => {
    await executable(join(first, 'chromium'));
    const own = await executable(join(root, 'my-chromium'));
    const chrome = await executable(join(root, 'my-chrome'));
    expect(findChromium({ PATH: first, TOOLHOST_CHROMIUM: own, CHROME_PATH: chrome })).toBe(own);
    expect(findChromium({ PATH: first, CHROME_PATH: chrome })).toBe(chrome);
  });

  it('fails with what to install when no browser is found', () => {
    expect(() => findChromium({ PATH: [first, second].join(delimiter) })).toThrow(
      'No Chromium found (chromium, chromium-browser, google-chrome, google-chrome-stable on PATH; TOOLHOST_CHROMIUM, CHROME_PATH unset); the OAuth end-to-end tests need it. Install Chromium (Debian/Ubuntu: apt-get update && apt-get install -y chromium), or set TOOLHOST_CHROMIUM (or CHROME_PATH) to a Chromium or Chrome executable.',
    );
  });

  it('fails, naming the variable, when it names no executable file', async () => {
    await executable(join(first, 'chromium'));
    expect(() => findChromium({ PATH: first, TOOLHOST_CHROMIUM: join(root, 'missing') })).toThrow(
      `TOOLHOST_CHROMIUM=${join(root, 'missing')} is not an executable file`,
    );
    expect(() => findChromium({ PATH: first, CHROME_PATH: second })).toThrow(`CHROME_PATH=${second} is not an executable file`);
  });
});
