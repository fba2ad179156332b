// Follows docs/getting-started.md, "2. Set up a project", as a newcomer would: in an empty folder it
// runs the documented commands, installs the tarballs of scripts/pack-packages.mjs with the
// documented lines, writes the documented tsconfig.json and agent.ts, then runs the documented
// commands: type-check, run (the project's server is blocked, and the message names the command that
// trusts the folder), `npx toolhost trust`, run again (the server connects). The blocks are taken
// from the markdown itself (the HTML comments `<!-- setup: ... -->` before them), so the guide
// cannot drift from what is tested. Offline apart from npm: the settings name a fixture server of
// this repository (instead of the guide's npx server) and nothing calls a model. It also checks that
// the README's tarball lines are the guide's, and that without `"type": "module"` TypeScript fails
// as the guide says (the step is needed).
//
// Usage: node scripts/pack-packages.mjs && node scripts/test-consumer-setup.mjs [--packages <folder>] [--keep]
//   --packages  where the tarballs are (default .tmp/packages)
//   --keep      keep the project folder (its path is printed)
// Needs bash (the documented lines are bash), npm and the registry for third-party packages.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const packagesIndex = args.indexOf('--packages');
const PACKAGES = resolve(packagesIndex >= 0 && args[packagesIndex + 1] ? args[packagesIndex + 1] : join(ROOT, '.tmp', 'packages'));
const KEEP = args.includes('--keep');
const GUIDE = join(ROOT, 'docs', 'getting-started.md');
const FIXTURE = join(ROOT, 'packages', 'fixtures', 'dist', 'bin', 'basic.js');
const COMMAND_TIMEOUT_MS = 10 * 60_000; // an npm install on a cold cache

/** A failed expectation: the test stops, says why, removes its folder and exits with 1. */
class SetupFailure extends Error {}
function fail(message) {
  throw new SetupFailure(message);
}

/** The fenced block after each `<!-- setup: <name> -->` comment of a markdown text, by name. */
function setupBlocks(markdown) {
  const blocks = new Map();
  const pattern = /<!-- setup: ([^>]+?) -->\s*\n```[a-z]*\n([\s\S]*?)\n```/g;
  for (const [, name, body] of markdown.matchAll(pattern)) blocks.set(name.trim(), body);
  return blocks;
}

/** The environment of the new project: its own home, npm's cache shared, no settings of the caller's `npm run`. */
function environment(home, root) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_(config|package|lifecycle)_/i.test(key) && key !== 'TOOLHOST_APP_DIR'),
  );
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    // npm's cache stays where it was (a new home would mean downloading everything again).
    npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
    npm_config_update_notifier: 'false',
    // Never the machine's own system settings.
    TOOLHOST_SYSTEM_SETTINGS_PATH: join(root, 'no-system-settings.json'),
  };
}

/** Runs a bash script in `cwd`; resolves to its exit code and output (stdout and stderr together). */
function bash(script, cwd, env) {
  return new Promise((done) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ code: 1, output: `${output}\ncould not start bash: ${error.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/** Runs one documented step; stops the test with its output when it fails. */
async function step(label, script, cwd, env, { expectFailure = false } = {}) {
  const started = Date.now();
  const { code, output } = await bash(script, cwd, env);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if ((code === 0) === expectFailure) {
    fail(`${label}: exit code ${code}${expectFailure ? ' (expected a failure)' : ''} after ${seconds} s\n$ ${script}\n${output}`);
  }
  console.log(`  ok  ${label} (${seconds} s)`);
  return output;
}

/** Stops the test unless `output` contains every one of `needles`. */
function expectOutput(label, output, needles) {
  const missing = needles.filter((needle) => !output.includes(needle));
  if (missing.length > 0)
    fail(`${label}: the output does not contain ${missing.map((needle) => JSON.stringify(needle)).join(', ')}:\n${output}`);
}

async function main() {
  const guide = readFileSync(GUIDE, 'utf8');
  const blocks = setupBlocks(guide);
  for (const name of ['commands', 'tarballs', 'file tsconfig.json', 'file agent.ts', 'run']) {
    if (!blocks.has(name)) fail(`docs/getting-started.md has no block after <!-- setup: ${name} -->`);
  }
  // The README gives the same tarball lines (a reader follows one or the other).
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  for (const line of blocks.get('tarballs').split('\n')) {
    if (!readme.includes(line)) fail(`README.md does not have the guide's tarball line: ${line}`);
  }
  if (!/npm install @toolhost\/host @toolhost\/cli /.test(readme)) fail('README.md: the npm install line does not install @toolhost/cli');
  if (!existsSync(PACKAGES) || !readdirSync(PACKAGES).some((file) => file.endsWith('.tgz'))) {
    fail(`no tarballs in ${PACKAGES}: run node scripts/pack-packages.mjs first`);
  }
  if (!existsSync(FIXTURE)) fail(`${FIXTURE} is missing: build the fixtures (pnpm --filter @toolhost-internal/fixtures build)`);

  const root = mkdtempSync(join(tmpdir(), 'toolhost-consumer-'));
  const home = join(root, 'home');
  const project = join(root, 'my-agent');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  const env = environment(home, root);
  console.log(`Following docs/getting-started.md "2. Set up a project" in ${project}:`);
  try {
    await step('set-up commands', blocks.get('commands'), project, env);
    // The documented placeholder `T=/path/to/toolhost/.tmp/packages` points at this clone's tarballs.
    const tarballs = blocks.get('tarballs').replace(/^T=.*$/m, `T=${JSON.stringify(PACKAGES)}`);
    if (tarballs === blocks.get('tarballs')) fail('the tarball block has no T=... line');
    await step('install the tarballs', tarballs, project, env);
    writeFileSync(join(project, 'tsconfig.json'), `${blocks.get('file tsconfig.json')}\n`);
    writeFileSync(join(project, 'agent.ts'), `${blocks.get('file agent.ts')}\n`);
    mkdirSync(join(project, '.toolhost'));
    const settings = { mcpServers: { fixture: { command: process.execPath, args: [FIXTURE], timeout: 60_000 } } };
    writeFileSync(join(project, '.toolhost', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);

    let trusted = false;
    for (const line of blocks.get('run').split('\n')) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (command === '') continue;
      const output = await step(command, command, project, env);
      if (command.includes('toolhost trust')) trusted = true;
      if (command.includes('agent.ts')) {
        // Before `toolhost trust` the server is blocked and the message names the command; after it, it connects.
        if (trusted) expectOutput(command, output, ['fixture (CONNECTED)', 'echo']);
        else expectOutput(command, output, ['fixture (BLOCKED)', 'npx @toolhost/cli trust']);
      }
    }

    // Without "type": "module" the documented program does not compile: the step is needed.
    const withoutType = await step('npx tsc without "type": "module" fails', 'npm pkg delete type && npx tsc', project, env, {
      expectFailure: true,
    });
    if (!/TS1309|TS1378/.test(withoutType)) fail(`expected TS1309 or TS1378 without "type": "module":\n${withoutType}`);
    console.log('The documented set-up works: type-checked, blocked until trusted, connected after `npx toolhost trust`.');
  } finally {
    if (KEEP) console.log(`Kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
}

try {
  await main();
} catch (error) {
  if (!(error instanceof SetupFailure)) throw error;
  console.error(`\ntest-consumer-setup: ${error.message}`);
  process.exitCode = 1;
}
