// `npm run quickstart`: from a fresh clone with only Node.js 20+ and npm, install the workspace,
// build what examples/quickstart needs and run it. The install and build write to a log file; the
// terminal shows one line per phase, then the demo. On a failure it shows the end of the log.
//
// Usage: node scripts/quickstart.mjs   (no dependencies: it runs before anything is installed)
//
// The build is JavaScript only (tsup without type declarations) and only for the packages the demo
// imports: type declarations are most of a build's time and the demo does not need them.
// `pnpm build` builds everything, declarations included (turbo never takes these builds for its own:
// it rebuilds, or restores a full build from its cache).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const LOG = join(ROOT, '.tmp', 'quickstart.log');
const LOG_SHOWN = relative(process.cwd(), LOG) || LOG;
const DEMO = '@toolhost-examples/quickstart';
const TAIL_LINES = 30;

const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const PNPM_VERSION = /^pnpm@(\d+\.\d+\.\d+)$/.exec(rootManifest.packageManager ?? '')?.[1];
const started = Date.now();

/**
 * Stops with a message and a non-zero exit code. `output` is what the failed command printed: its
 * last lines are shown (the end of the log when it is not given), then where the full log is.
 */
function fail(message, { showLog = true, output } = {}) {
  console.error(`\n${message}`);
  if (showLog && existsSync(LOG)) {
    const lines = (output ?? readFileSync(LOG, 'utf8')).trimEnd().split(/\r?\n/);
    console.error(`Its last ${Math.min(TAIL_LINES, lines.length)} lines:\n`);
    console.error(lines.slice(-TAIL_LINES).join('\n'));
    console.error(`\nFull log: ${LOG}`);
  }
  process.exit(1);
}

/**
 * Runs a command with its output appended to the log; resolves to its exit code and output. With `buffer`,
 * the output is appended in one piece when the command ends, so that commands run side by side do
 * not interleave their lines.
 */
function logged(command, args, { cwd = ROOT, buffer = false } = {}) {
  const header = `\n$ ${[command, ...args].join(' ')}   (in ${relative(ROOT, cwd) || '.'})\n`;
  const chunks = [];
  const write = (chunk) => {
    chunks.push(chunk);
    if (!buffer) appendFileSync(LOG, chunk);
  };
  const commandStarted = Date.now();
  if (!buffer) appendFileSync(LOG, header);
  return new Promise((resolve) => {
    const finish = (code) => {
      const footer = `(exit code ${code} after ${((Date.now() - commandStarted) / 1000).toFixed(1)} s)\n`;
      appendFileSync(LOG, buffer ? Buffer.concat([Buffer.from(header), ...chunks, Buffer.from(footer)]) : footer);
      resolve({ code, output: Buffer.concat(chunks).toString('utf8') });
    };
    const child = spawn(command, args, {
      cwd,
      // No npm update notice, no colour codes in the log.
      env: { ...process.env, npm_config_update_notifier: 'false', FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    child.stdout.on('data', write);
    child.stderr.on('data', write);
    child.on('error', (error) => {
      write(Buffer.from(`could not start ${command}: ${error.message}\n`));
      finish(1);
    });
    child.on('close', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}

/**
 * npx as a Node script (npm's own npx-cli.js), so that no shell runs it on Windows, where `npx` is
 * a .cmd file. Falls back to `npx` on PATH.
 */
function npx() {
  const candidates = [];
  const npmCli = process.env.npm_execpath;
  if (npmCli && /npm-cli\.js$/.test(npmCli)) candidates.push(join(dirname(npmCli), 'npx-cli.js'));
  const nodeDir = dirname(process.execPath);
  candidates.push(join(nodeDir, 'node_modules', 'npm', 'bin', 'npx-cli.js')); // Windows installer layout
  candidates.push(join(nodeDir, '..', 'lib', 'node_modules', 'npm', 'bin', 'npx-cli.js')); // Unix layout
  const script = candidates.find((candidate) => existsSync(candidate));
  if (script) return { command: process.execPath, prefix: [script] };
  if (process.platform === 'win32') fail("Cannot find npm's npx-cli.js next to node.exe: reinstall Node.js with npm.", { showLog: false });
  return { command: 'npx', prefix: [] };
}

/** Workspace packages by name: their folder and the workspace packages they need at run time. */
function workspacePackages() {
  const packages = new Map();
  for (const group of ['packages', 'examples']) {
    for (const name of readdirSync(join(ROOT, group))) {
      const dir = join(ROOT, group, name);
      const manifestPath = join(dir, 'package.json');
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      const dependencies = Object.entries(manifest.dependencies ?? {})
        .filter(([, spec]) => String(spec).startsWith('workspace:'))
        .map(([dependency]) => dependency);
      packages.set(manifest.name, { dir, dependencies, builds: Boolean(manifest.scripts?.build) });
    }
  }
  return packages;
}

/** The demo and every workspace package it needs at run time. */
function demoClosure(packages) {
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    const pkg = packages.get(name);
    if (!pkg) fail(`${name} is not a workspace package (needed by ${DEMO}).`, { showLog: false });
    seen.add(name);
    pkg.dependencies.forEach(visit);
  };
  visit(DEMO);
  return [...seen].map((name) => ({ name, ...packages.get(name) })).filter((pkg) => pkg.builds);
}

/** Runs `task` for every item, at most `limit` at a time; resolves to the first failure or undefined. */
async function pool(items, limit, task) {
  let failure;
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item && !failure; item = queue.shift()) {
      const problem = await task(item);
      failure ??= problem;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return failure;
}

async function main() {
  const [major] = process.versions.node.split('.').map(Number);
  if (major < 20) fail(`toolhost needs Node.js 20 or newer; this is Node.js ${process.versions.node}.`, { showLog: false });
  if (!PNPM_VERSION) fail('package.json has no "packageManager": "pnpm@x.y.z" field.', { showLog: false });

  mkdirSync(dirname(LOG), { recursive: true });
  writeFileSync(LOG, `toolhost quickstart, ${new Date().toISOString()}, Node.js ${process.versions.node}, ${process.platform}\n`);

  console.log(`Installing the workspace with pnpm ${PNPM_VERSION} (full log: ${LOG_SHOWN})...`);
  const { command, prefix } = npx();
  // No TTY to ask on: when node_modules was installed with other settings, pnpm may replace it.
  const pnpmArgs = ['install', '--frozen-lockfile', '--config.confirm-modules-purge=false'];
  const install = await logged(command, [...prefix, '-y', `pnpm@${PNPM_VERSION}`, ...pnpmArgs]);
  if (install.code !== 0) fail(`The install failed (exit code ${install.code}).`, { output: install.output });

  const targets = demoClosure(workspacePackages());
  console.log(`Building the ${targets.length} packages the demo needs (JavaScript only)...`);
  let tsup;
  try {
    const tsupDir = join(ROOT, 'node_modules', 'tsup');
    tsup = join(tsupDir, JSON.parse(readFileSync(join(tsupDir, 'package.json'), 'utf8')).bin.tsup);
  } catch (error) {
    fail(`tsup is not installed in node_modules (${error.message}).`);
  }
  // os.availableParallelism is newer than some Node.js versions this script must still refuse clearly.
  const parallel = Math.max(1, Math.min(4, os.availableParallelism?.() ?? os.cpus().length));
  const failed = await pool(targets, parallel, async (pkg) => {
    const build = await logged(process.execPath, [tsup, '--no-dts'], { cwd: pkg.dir, buffer: true });
    return build.code === 0 ? undefined : { ...build, name: pkg.name };
  });
  if (failed) fail(`The build of ${failed.name} failed (exit code ${failed.code}).`, { output: failed.output });

  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(`Running the demo (examples/quickstart); install and build took ${seconds} s:`);
  const demo = spawn(process.execPath, [join(ROOT, 'examples', 'quickstart', 'dist', 'index.js')], { cwd: ROOT, stdio: 'inherit' });
  demo.on('error', (error) => fail(`Could not start the demo: ${error.message}`, { showLog: false }));
  demo.on('close', (code, signal) => {
    if (code === 0) return;
    console.error(`\nThe demo failed (${signal ? `signal ${signal}` : `exit code ${code}`}).`);
    process.exitCode = code || 1;
  });
}

await main();
