import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumLaunchOptions } from '@toolhost-internal/fixtures';
import { hashToolDefinition } from '@toolhost/confirmation';
import { build, type Plugin } from 'esbuild';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserRunResult } from './entries/runtime-neutral.js';

// The packages that need no Node APIs, as a browser app gets them: their built packages bundled
// by esbuild for the browser with no Node polyfills (any Node built-in import fails the build),
// then run in real Chromium from a loopback page.

const here = dirname(fileURLToPath(import.meta.url));
const entry = join(here, 'entries', 'runtime-neutral.ts');
const nodeBuiltins = new Set(builtinModules);

/** Fails the build on any import of a Node built-in (`node:fs`, `fs`, `crypto`, ...), naming the importer. */
const refuseNodeBuiltins: Plugin = {
  name: 'refuse-node-builtins',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      const bare = args.path.startsWith('node:') ? args.path.slice('node:'.length) : args.path;
      if (!args.path.startsWith('node:') && !nodeBuiltins.has(bare.split('/')[0] ?? bare)) return undefined;
      return { errors: [{ text: `Node built-in '${args.path}' imported by ${args.importer}: not available in a browser` }] };
    });
  },
};

/** Bundles `entryPoint` for the browser as an IIFE exposing its exports on `globalThis.toolhostBrowser`. */
async function bundleForBrowser(entryPoint: string): Promise<string> {
  const result = await build({
    entryPoints: [entryPoint],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'toolhostBrowser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    plugins: [refuseNodeBuiltins],
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild produced no output');
  return output.text;
}

let bundle: string;
let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  bundle = await bundleForBrowser(entry);
  server = createServer((request, response) => {
    if (request.url === '/bundle.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<!doctype html><title>toolhost</title><script src="/bundle.js"></script>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch(chromiumLaunchOptions());
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('runtime-neutral packages in a browser', () => {
  it('bundle for the browser without Node built-ins and without Node globals', () => {
    expect(bundle.length).toBeGreaterThan(0);
    // No Node polyfill or shim made it in, and nothing reads Node globals at run time.
    expect(bundle).not.toMatch(/\brequire\(["'](node:)?(fs|path|os|crypto|child_process|buffer|process)["']\)/);
    expect(bundle).not.toMatch(/\bBuffer\.(from|alloc|isBuffer)\(/);
    expect(bundle).not.toMatch(/\bprocess\.(env|pid|platform|cwd|versions)\b/);
  });

  it('refuses a Node-only entry: the check fails the build on a node: import', async () => {
    const nodeEntry = join(here, 'entries', 'node-only.ts');
    // The file store and what it imports (the lock of @toolhost/config) are refused, whichever esbuild names first.
    await expect(bundleForBrowser(nodeEntry)).rejects.toThrow(
      /Node built-in '(node:)?[a-z_/]+' imported by \S+: not available in a browser/,
    );
  });

  it('sanitize a schema, map an image result, decide a confirmation and use the error helpers in Chromium', async () => {
    const page = await browser.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    await page.goto(origin);
    const result = (await page.evaluate(async () =>
      (globalThis as unknown as { toolhostBrowser: { run: () => Promise<unknown> } }).toolhostBrowser.run(),
    )) as BrowserRunResult;
    await page.close();
    expect(pageErrors).toEqual([]);
    expect(result.userAgent).toMatch(/Chrome/);

    // schema-sanitizer
    const when = { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] };
    expect(result.schema.gemini).toEqual({
      type: 'object',
      properties: { city: { type: 'string', format: 'hostname', minLength: 1 }, when },
      required: ['city'],
    });
    expect(result.schema.dropped).toEqual(['$schema', 'additionalProperties']);
    expect(result.schema.openaiStrict).toEqual({
      type: 'object',
      properties: { city: { type: 'string', format: 'hostname' }, when },
      required: ['city', 'when'],
      additionalProperties: false,
    });
    expect(result.schema.toolName).toBe('mcp_my_server_tool_');

    // content-mapper
    expect(result.content).toEqual({
      llmParts: [
        { type: 'text', text: "Here is the logo.\n[Tool 'logo' provided the following image data with mime-type: image/png]" },
        { type: 'inlineData', mimeType: 'image/png', data: 'iVBORw0KGgo=', source: 'image' },
      ],
      display: 'Here is the logo. [Image: image/png]',
      isError: false,
    });

    // confirmation core: ask, "always allow this tool", pinned to the definition
    expect(result.confirmation).toMatchObject({
      firstStatus: 'ask',
      requestTitle: 'Confirm MCP Tool Execution',
      decision: { allowed: true, outcome: 'proceed_always_tool' },
      secondStatus: 'allowed',
      secondReason: 'allow-list-tool',
      changedStatus: 'ask',
      declined: { allowed: false, code: 'TOOL_CALL_DENIED', isToolhostError: true },
    });
    // WebCrypto in the browser pins the same hash as Node does, so approvals carry across runtimes.
    expect(result.confirmation.hash).toBe(
      await hashToolDefinition({ name: 'delete_file', description: 'Deletes a file.', inputSchema: { type: 'object' } }),
    );

    // contract
    expect(result.contract).toEqual({
      isToolhostError: true,
      isAdapterError: true,
      foundInChain: 'INVALID_TOOL_CALL',
      knownCode: true,
      unknownCode: false,
      escaped: 'a\\u001b[31mred',
    });
  });
});
