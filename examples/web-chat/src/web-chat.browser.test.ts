import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions, fixtureBinPath } from '@toolhost-internal/fixtures';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The web chat in real Chromium against the real agent: the built examples/a2a-agent serves the
// built page and the A2A endpoint on one loopback origin, with the scripted model and the basic
// fixture MCP server (untrusted, so every tool call asks). The test waits on DOM states only.

const here = dirname(fileURLToPath(import.meta.url));
const webChat = resolve(here, '..');
const dist = join(webChat, 'dist');
const agentBin = resolve(webChat, '..', 'a2a-agent', 'dist', 'index.js');
/** Screenshots and the agent's output land here (gitignored). */
const outputDir = join(webChat, '.test-output');
// Deadlines for what the page shows: reached only by a failure (a busy machine renders late).
const WAIT = { timeout: 60_000 };

/** A running examples/a2a-agent. */
interface Agent {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The bearer token, from the web chat URL the agent printed. */
  token: string;
  /** Everything it printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

let root: string;
let settingsPath: string;
let agent: Agent;
let browser: Browser;
const agents: Agent[] = [];

/** Starts the built agent on a free port, serving the built page, and resolves once it prints the web chat URL with its token. */
async function startAgent(...extraArgs: string[]): Promise<Agent> {
  const child: ChildProcess = spawn(
    process.execPath,
    [agentBin, '--port', '0', '--settings', settingsPath, '--model', 'scripted', '--web', dist, ...extraArgs],
    { cwd: root, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const [origin, token] = await new Promise<[string, string]>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`the agent printed no web chat URL within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const found = /Web chat: (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)/.exec(output);
      if (found?.[1] && found[2]) {
        clearTimeout(timer);
        resolvePromise([found[1], decodeURIComponent(found[2])]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the agent exited with ${String(code)} before listening:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  const started = { origin, token, output: () => output, stop };
  agents.push(started);
  return started;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'toolhost-web-chat-'));
  await mkdir(outputDir, { recursive: true });
  settingsPath = join(root, 'settings.json');
  await writeFile(
    settingsPath,
    JSON.stringify(
      {
        mcpServers: {
          // Untrusted: every call asks.
          basic: { command: process.execPath, args: [fixtureBinPath('basic')] },
          // Trusted: runs without asking, and reports progress while it waits.
          slow: { command: process.execPath, args: [fixtureBinPath('slow'), '--progress-interval-ms=150'], trust: true },
        },
      },
      null,
      2,
    ),
  );
  agent = await startAgent();
  browser = await chromium.launch(chromiumLaunchOptions());
});

afterAll(async () => {
  await browser?.close();
  await Promise.all(agents.map((started) => started.stop()));
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** Opens the page in a fresh browser context (a new session) and, unless told not to, waits until it has connected. */
async function openChat(
  url = `${agent.origin}/?workspace=${encodeURIComponent(root)}#token=${encodeURIComponent(agent.token)}`,
  connected = true,
): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 1200 } });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(url);
  if (connected) await page.locator('#agent-status', { hasText: 'Connected' }).waitFor(WAIT);
  return { page, pageErrors };
}

/** Records every `data-status` a tool card takes, in order, from the moment it is called. */
async function recordStatuses(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { statuses: string[] }).statuses = seen;
    new MutationObserver(() => {
      const status = document.querySelector<HTMLElement>('.tool-call')?.dataset['status'];
      if (status !== undefined && seen.at(-1) !== status) seen.push(status);
    }).observe(document.getElementById('transcript')!, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['data-status'],
    });
  });
}

async function statuses(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
}

async function send(page: Page, text: string): Promise<void> {
  await page.locator('#send:not([disabled])').waitFor(WAIT);
  await page.fill('#prompt', text);
  await page.press('#prompt', 'Enter');
}

describe('web chat in Chromium', () => {
  it('asks in a dialog, runs the approved tool, shows its image and the answer, and lists the commands', async () => {
    const { page, pageErrors } = await openChat();
    await recordStatuses(page);
    await send(page, 'call mixed-content {}');

    const card = page.locator('.tool-call');
    await card.and(page.locator('[data-status="PENDING"]')).waitFor(WAIT);
    await expect(card.locator('.tool-name').textContent()).resolves.toContain('mixed-content');
    const dialog = page.locator('#confirm-dialog[open]');
    await dialog.waitFor(WAIT);
    await expect(dialog.locator('#confirm-title').textContent()).resolves.toContain('mixed-content');
    const optionIds = await dialog
      .locator('#confirm-options button')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-option-id')));
    expect(optionIds).toContain('proceed_once');
    expect(optionIds).toContain('cancel');
    await page.screenshot({ path: join(outputDir, 'web-chat-confirm.png') });
    await dialog.locator('button[data-option-id="proceed_once"]').click();

    await card.and(page.locator('[data-status="SUCCEEDED"]')).waitFor(WAIT);
    expect(await statuses(page)).toEqual(['PENDING', 'EXECUTING', 'SUCCEEDED']);
    await expect(card.locator('.output').textContent()).resolves.toContain('first text block');
    const image = card.locator('img');
    await image.waitFor(WAIT);
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('.tool-call img')?.naturalWidth ?? 0) > 0, undefined, WAIT);
    expect(await image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await page.locator('.message.agent', { hasText: 'first text block' }).waitFor(WAIT);
    await page.locator('#agent-status', { hasText: 'completed' }).waitFor(WAIT);
    await expect(card.locator('.files li').allTextContents()).resolves.toEqual([
      'mixed-content-2 (audio/wav, not shown)',
      'mixed-content-3 (application/octet-stream, not shown)',
    ]);
    await page.screenshot({ path: join(outputDir, 'web-chat.png') });

    await page.fill('#prompt', '');
    await page.type('#prompt', '/');
    await page.locator('#palette:not([hidden]) [role="option"]').first().waitFor(WAIT);
    const commands = await page.locator('#palette [role="option"] .name').allTextContents();
    expect(commands).toEqual(expect.arrayContaining([expect.stringMatching(/^\/mcp\b/), expect.stringMatching(/^\/poem-writer\b/)]));
    await expect(page.getAttribute('#prompt', 'aria-expanded')).resolves.toBe('true');
    await page.screenshot({ path: join(outputDir, 'web-chat-palette.png') });

    // Pick "/mcp list" from the palette and run it: command/execute, then its task's output.
    await page.type('#prompt', 'mcp l');
    await page.locator('#palette [role="option"][aria-selected="true"]', { hasText: '/mcp list' }).waitFor(WAIT);
    await page.press('#prompt', 'Enter');
    await expect(page.inputValue('#prompt')).resolves.toBe('/mcp list ');
    await page.press('#prompt', 'Enter');
    await page.locator('.message.user', { hasText: '/mcp list' }).waitFor(WAIT);
    await page.locator('.message.note', { hasText: '/mcp list' }).waitFor(WAIT);
    await page.locator('#transcript > li.message.agent:last-child', { hasText: /basic.*CONNECTED/ }).waitFor(WAIT);
    await page.screenshot({ path: join(outputDir, 'web-chat-command.png') });
    expect(pageErrors).toEqual([]);
  });

  it('cancels a tool call from the dialog (Escape picks cancel) without running it', async () => {
    const { page, pageErrors } = await openChat();
    await recordStatuses(page);
    await send(page, 'call echo {"message":"never sent"}');
    await page.locator('#confirm-dialog[open]').waitFor(WAIT);
    await expect(page.evaluate(() => document.activeElement?.closest('#confirm-dialog') !== null)).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('.tool-call[data-status="CANCELLED"]').waitFor(WAIT);
    expect(await statuses(page)).toEqual(['PENDING', 'CANCELLED']);
    expect(await page.locator('.tool-call .output').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('shows markup from a tool result as text, never as HTML', async () => {
    const { page, pageErrors } = await openChat();
    const hostile = '<img src=x onerror="window.pwned=1"><b id="bold">bold</b>';
    await send(page, `call echo ${JSON.stringify({ message: hostile })}`);
    await page.locator('#confirm-dialog[open]').waitFor(WAIT);
    await expect(page.locator('#confirm-arguments').textContent()).resolves.toContain(JSON.stringify(hostile));
    await page.locator('#confirm-dialog button[data-option-id="proceed_once"]').click();
    await page.locator('.tool-call[data-status="SUCCEEDED"]').waitFor(WAIT);
    await expect(page.locator('.tool-call .output').textContent()).resolves.toBe(hostile);
    await page.locator('.message.agent', { hasText: hostile }).waitFor(WAIT);
    expect(await page.locator('#transcript img, #bold').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(pageErrors).toEqual([]);
  });

  it('asks for the bearer token of an agent that requires one, and works once it is given', async () => {
    const token = 'web-chat-test-token';
    const guarded = await startAgent('--token', token);
    const { page, pageErrors } = await openChat(`${guarded.origin}/?workspace=${encodeURIComponent(root)}`, false);
    // The agent card is public; its A2A requests are not.
    await page.locator('#agent-status.error', { hasText: 'bearer token' }).waitFor(WAIT);
    expect(await page.getAttribute('#connection', 'open')).not.toBeNull();
    await page.fill('#token', token);
    await page.click('#connection-form button[type="submit"]');
    await page.locator('#agent-status:not(.error)', { hasText: 'Connected' }).waitFor(WAIT);
    await send(page, 'call echo {"message":"with a token"}');
    await page.locator('#confirm-dialog button[data-option-id="proceed_once"]').click(WAIT);
    await page.locator('.message.agent', { hasText: 'with a token' }).waitFor(WAIT);
    expect(pageErrors.filter((error) => !error.includes('status of 401'))).toEqual([]);

    // A token in the address fragment fills the field and leaves the address bar.
    const second = await openChat(`${guarded.origin}/#token=${token}`);
    expect(second.page.url()).toBe(`${guarded.origin}/`);
    await expect(second.page.inputValue('#token')).resolves.toBe(token);
    expect(second.pageErrors).toEqual([]);
  });

  it('streams live content into the card of a trusted tool that runs without asking', async () => {
    const { page, pageErrors } = await openChat();
    await recordStatuses(page);
    await page.evaluate(() => {
      const live: string[] = [];
      (window as unknown as { live: string[] }).live = live;
      new MutationObserver(() => {
        const text = document.querySelector('.tool-call .live-content')?.textContent;
        if (text && live.at(-1) !== text) live.push(text);
      }).observe(document.getElementById('transcript')!, { subtree: true, childList: true, characterData: true });
    });
    // Four seconds of progress every 150 ms: long enough for a busy browser to show the running card.
    await send(page, 'call slow {"delayMs":4000}');
    await page.locator('.tool-call[data-status="EXECUTING"] .live-content', { hasText: /waited \d+ ms/ }).waitFor(WAIT);
    await page.locator('.tool-call[data-status="SUCCEEDED"] .output', { hasText: 'done after 4000 ms' }).waitFor(WAIT);
    const live = await page.evaluate(() => (window as unknown as { live: string[] }).live);
    expect(live.length).toBeGreaterThanOrEqual(2);
    expect(await page.locator('.tool-call .live-content').count()).toBe(0);
    const seen = await statuses(page);
    expect(seen.at(-2)).toBe('EXECUTING');
    expect(seen.at(-1)).toBe('SUCCEEDED');
    expect(seen).not.toContain('CANCELLED');
    expect(await page.locator('#confirm-dialog[open]').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });
});
