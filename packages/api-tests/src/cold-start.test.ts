// What importing a package costs at start-up: libraries only some programs need (the file lock,
// JOSE for DPoP, the JSON-schema validator) are loaded the first time they are used, not by the
// import. Each check runs a fresh Node process on the built packages and lists every package whose
// files it loaded: ES modules through a resolve hook, CommonJS files through require.cache.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const HERE = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Generous: a busy 2-core machine starts Node and imports the host. */
const RUN_TIMEOUT_MS = 60_000;

/** The loader hook of the child: records every URL it resolves, and sends the list when asked. */
const HOOKS = `
let port;
const urls = [];
export function initialize(data) {
  port = data.port;
  port.on('message', () => port.postMessage(urls));
  port.unref();
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  urls.push(result.url);
  return result;
}
`;

/**
 * The npm packages (names, sorted) a fresh Node process loaded after importing `specifier` as
 * `mod` and running `then` (module code, may await). Workspace packages (no node_modules in their
 * real path) are not listed.
 */
async function packagesLoaded(specifier: string, then = ''): Promise<string[]> {
  const script = `
import { register, createRequire } from 'node:module';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
const { port1, port2 } = new MessageChannel();
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), import.meta.url, { data: { port: port2 }, transferList: [port2] });
const mod = await import(${JSON.stringify(specifier)});
${then}
port1.postMessage('report');
const [urls] = await once(port1, 'message');
const files = [...urls.filter((url) => url.startsWith('file:')).map((url) => fileURLToPath(url)), ...Object.keys(createRequire(import.meta.url).cache)];
const names = new Set();
for (const file of files) {
  const match = file.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\/(?!.*node_modules\\/)/);
  if (match) names.add(match[1]);
}
console.log(JSON.stringify([...names].sort()));
process.exit(0);
`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    cwd: HERE,
    timeout: RUN_TIMEOUT_MS,
  });
  return JSON.parse(stdout) as string[];
}

describe('cold start: what an import loads', () => {
  it(
    '@toolhost/config loads proper-lockfile only when a file is locked',
    async () => {
      expect(await packagesLoaded('@toolhost/config')).not.toContain('proper-lockfile');
      const locked = await packagesLoaded(
        '@toolhost/config/files',
        `const { mkdtemp, rm } = await import('node:fs/promises');
       const folder = await mkdtemp((await import('node:os')).tmpdir() + '/toolhost-cold-start-');
       await mod.withFileLock(folder + '/file.lock', 10_000, async () => undefined, (failure) => new Error(failure.detail));
       await rm(folder, { recursive: true, force: true });`,
      );
      expect(locked).toContain('proper-lockfile');
    },
    2 * RUN_TIMEOUT_MS,
  );

  it(
    '@toolhost/oauth loads jose only when DPoP is used',
    async () => {
      const imported = await packagesLoaded('@toolhost/oauth');
      expect(imported).toContain('@modelcontextprotocol/client');
      expect(imported).not.toContain('jose');
      expect(await packagesLoaded('@toolhost/oauth/protocol', 'await mod.generateDpopKey();')).toContain('jose');
    },
    2 * RUN_TIMEOUT_MS,
  );

  it(
    '@toolhost/confirmation loads ajv only when arguments are first validated, imported or required',
    async () => {
      const validate = (mod: string): string =>
        `const result = ${mod}.validateToolArguments({ serverName: 'files', toolName: 'read', inputSchema: { type: 'object', required: ['path'] }, arguments: {} });
         if (result.valid) throw new Error('expected the missing path to be refused');`;
      expect(await packagesLoaded('@toolhost/confirmation')).not.toContain('ajv');
      expect(await packagesLoaded('@toolhost/confirmation', validate('mod'))).toEqual(expect.arrayContaining(['ajv', 'ajv-formats']));
      // The CommonJS build: required from an ES module, through node:module.
      const requireIt = `const confirmation = mod.createRequire(import.meta.url)('@toolhost/confirmation');`;
      expect(await packagesLoaded('node:module', requireIt)).not.toContain('ajv');
      expect(await packagesLoaded('node:module', requireIt + validate('confirmation'))).toEqual(
        expect.arrayContaining(['ajv', 'ajv-formats']),
      );
    },
    4 * RUN_TIMEOUT_MS,
  );

  it(
    '@toolhost/host loads no proper-lockfile, jose or ajv at import',
    async () => {
      const loaded = await packagesLoaded('@toolhost/host');
      expect(loaded).toContain('@modelcontextprotocol/client');
      expect(loaded).not.toContain('proper-lockfile');
      expect(loaded).not.toContain('jose');
      expect(loaded).not.toContain('ajv');
    },
    RUN_TIMEOUT_MS,
  );

  it(
    'a bundle for Node still holds what the packages load late: it validates and signs with no node_modules',
    async () => {
      // What an application bundled with esbuild (a VS Code extension, a Lambda) ships: one file. ajv
      // is required late only outside bundlers (the `module` condition of #load-ajv), jose is a
      // literal import() that bundlers follow.
      const folder = await mkdtemp(join(tmpdir(), 'toolhost-bundle-'));
      try {
        const contents = `
import { validateToolArguments } from '@toolhost/confirmation';
import { dpopKeyThumbprint, generateDpopKey } from '@toolhost/oauth/protocol';
const result = validateToolArguments({ serverName: 'files', toolName: 'read', inputSchema: { type: 'object', required: ['path'] }, arguments: {} });
const thumbprint = await dpopKeyThumbprint(await generateDpopKey());
console.log(JSON.stringify({ code: result.valid ? undefined : result.error.code, thumbprint }));
`;
        await build({
          stdin: { contents, resolveDir: HERE, loader: 'js' },
          bundle: true,
          platform: 'node',
          format: 'esm',
          outfile: join(folder, 'app.mjs'),
          logLevel: 'silent',
        });
        // Without NODE_PATH: pnpm's bin scripts set it to the store's hoisted node_modules, where a
        // require that escaped the bundle would still find ajv.
        const env = { ...process.env, NODE_PATH: undefined };
        const { stdout } = await promisify(execFile)(process.execPath, [join(folder, 'app.mjs')], {
          cwd: folder,
          env,
          timeout: RUN_TIMEOUT_MS,
        });
        expect(JSON.parse(stdout)).toEqual({ code: 'INVALID_TOOL_ARGUMENTS', thumbprint: expect.stringMatching(/^[\w-]{43}$/) });
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
    2 * RUN_TIMEOUT_MS,
  );
});
