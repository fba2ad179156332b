// google-auth-library is an optional peer dependency: an application that installs @toolhost/oauth
// without it gets, from a Google provider, an OAuthError naming the server and the package to
// install, not a module-resolution crash. The consumer is real: a temporary project whose
// node_modules holds the built @toolhost/oauth and its dependencies, and no google-auth-library.
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Generous: a busy 2-core machine starts Node and imports the package. */
const RUN_TIMEOUT_MS = 60_000;

interface Outcome {
  readonly what: string;
  readonly isOAuthError: boolean;
  readonly code: unknown;
  readonly serverName: unknown;
  readonly message: string;
}

/** The script each consumer runs: every way to a Google provider, and what each throws. */
const SCENARIOS = `
const outcomes = [];
const config = { httpUrl: 'https://tools.googleapis.com/mcp', oauth: { scopes: ['https://www.googleapis.com/auth/cloud-platform'] } };
const iap = { httpUrl: 'https://iap.example/mcp', targetAudience: 'aud', targetServiceAccount: 'sa@project.iam.gserviceaccount.com' };
async function record(what, run) {
  try {
    await run();
    outcomes.push({ what, isOAuthError: false, code: 'no error', message: '' });
  } catch (error) {
    outcomes.push({ what, isOAuthError: oauth.OAuthError.isInstance(error), code: error.code, serverName: error.serverName, message: error.message });
  }
}
let resolvable = true;
try { require.resolve('google-auth-library'); } catch { resolvable = false; }
await record('GoogleCredentialProvider', () => new google.GoogleCredentialProvider({ serverName: 'gcp-tools', config }).tokens());
await record('ServiceAccountImpersonationProvider', () => new google.ServiceAccountImpersonationProvider({ serverName: 'iap-tools', config: iap }).tokens());
await record('createAuthProvider', () =>
  oauth.createAuthProvider({ serverName: 'adc-tools', config: { ...config, authProviderType: 'google_credentials' }, tokenStore: new oauth.InMemoryTokenStore() }).tokens(),
);
console.log(JSON.stringify({ resolvable, outcomes }));
`;

const CONSUMERS = {
  'esm.mjs': `import { createRequire } from 'node:module';
import * as oauth from '@toolhost/oauth';
import * as google from '@toolhost/oauth/google';
const require = createRequire(import.meta.url);
${SCENARIOS}`,
  'cjs.cjs': `const oauth = require('@toolhost/oauth');
const google = require('@toolhost/oauth/google');
(async () => {
${SCENARIOS}
})();`,
};

let project: string;

beforeAll(() => {
  if (!existsSync(join(PACKAGE_DIR, 'dist', 'google.js')))
    throw new Error('@toolhost/oauth is not built (no dist/google.js): run `pnpm run build --filter=@toolhost/oauth...` first.');
  project = mkdtempSync(join(tmpdir(), 'toolhost-no-google-'));
  const modules = join(project, 'node_modules');
  // The package itself is copied (not linked), so that its imports resolve from this project.
  const installed = join(modules, '@toolhost', 'oauth');
  mkdirSync(installed, { recursive: true });
  cpSync(join(PACKAGE_DIR, 'dist'), join(installed, 'dist'), { recursive: true });
  cpSync(join(PACKAGE_DIR, 'package.json'), join(installed, 'package.json'));
  const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies)) {
    mkdirSync(dirname(join(modules, name)), { recursive: true });
    symlinkSync(realpathSync(join(PACKAGE_DIR, 'node_modules', name)), join(modules, name), 'dir');
  }
  writeFileSync(join(project, 'package.json'), '{ "name": "consumer", "private": true }\n');
  for (const [file, text] of Object.entries(CONSUMERS)) writeFileSync(join(project, file), text);
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('@toolhost/oauth without google-auth-library installed', () => {
  it.each(Object.keys(CONSUMERS))(
    '%s: each Google provider fails with PACKAGE_NOT_INSTALLED naming the server and the package',
    async (file) => {
      // Without NODE_PATH: pnpm's command shims set it to the workspace's hoisted packages, which an application does not have.
      const { NODE_PATH: _ignored, ...env } = process.env;
      const { stdout } = await promisify(execFile)(process.execPath, [file], { cwd: project, env, timeout: RUN_TIMEOUT_MS });
      const { resolvable, outcomes } = JSON.parse(stdout) as { resolvable: boolean; outcomes: Outcome[] };
      expect(resolvable).toBe(false);
      expect(outcomes.map(({ what, isOAuthError, code, serverName }) => ({ what, isOAuthError, code, serverName }))).toEqual([
        { what: 'GoogleCredentialProvider', isOAuthError: true, code: 'PACKAGE_NOT_INSTALLED', serverName: 'gcp-tools' },
        { what: 'ServiceAccountImpersonationProvider', isOAuthError: true, code: 'PACKAGE_NOT_INSTALLED', serverName: 'iap-tools' },
        { what: 'createAuthProvider', isOAuthError: true, code: 'PACKAGE_NOT_INSTALLED', serverName: 'adc-tools' },
      ]);
      const [adc, impersonation] = outcomes;
      expect(adc?.message).toContain("MCP server 'gcp-tools' uses authProviderType google_credentials");
      expect(adc?.message).toContain('npm install google-auth-library');
      expect(impersonation?.message).toContain("MCP server 'iap-tools' uses authProviderType service_account_impersonation");
      expect(impersonation?.message).toContain('Install google-auth-library');
    },
    RUN_TIMEOUT_MS,
  );
});
