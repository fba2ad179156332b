// Builds every published package (packages/* without "private": true) and packs each into one
// folder with `pnpm pack`, which rewrites `workspace:*` and `catalog:` to real versions, so the
// tarballs install on their own with npm, without the npm registry having any @toolhost package.
//
// Usage: node scripts/pack-packages.mjs [--out <folder>] [--no-build]
//   --out       where the .tgz files go (default .tmp/packages)
//   --no-build  pack what is already built
// It ends by printing the npm install command, with every tarball needed and the required peer
// dependencies, for @toolhost/host with the `toolhost` command (@toolhost/cli), and for each adapter;
// optional peer dependencies (such as google-auth-library, for Google credentials) are named on a
// line of their own, not installed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
const OUT = resolve(outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1] : join(ROOT, '.tmp', 'packages'));
const build = !args.includes('--no-build');

// pnpm (a root devDependency) and turbo must be found by name, also when run with plain `node`.
const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };
const bin = (name) => join(ROOT, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);
const PNPM = bin('pnpm');
if (!existsSync(PNPM)) {
  console.error('pack-packages: install the workspace first (npx -y pnpm@10.34.9 install --frozen-lockfile).');
  process.exit(1);
}

/** The published packages: name, folder, version, and their @toolhost dependencies. */
const packages = readdirSync(join(ROOT, 'packages'))
  .sort()
  .map((dir) => ({ dir: join(ROOT, 'packages', dir), manifestPath: join(ROOT, 'packages', dir, 'package.json') }))
  .filter(({ manifestPath }) => existsSync(manifestPath))
  .map(({ dir, manifestPath }) => ({ dir, manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) }))
  .filter(({ manifest }) => manifest.private !== true)
  .map(({ dir, manifest }) => ({
    dir,
    name: manifest.name,
    version: manifest.version,
    dependsOn: Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@toolhost/')),
    // Required peers go on the install lines; optional ones (google-auth-library of @toolhost/oauth)
    // only for the features that need them, so they are named apart.
    peers: Object.keys(manifest.peerDependencies ?? {}).filter((name) => manifest.peerDependenciesMeta?.[name]?.optional !== true),
    optionalPeers: Object.keys(manifest.peerDependencies ?? {}).filter((name) => manifest.peerDependenciesMeta?.[name]?.optional === true),
  }));
const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));

if (build) {
  const filters = packages.map((pkg) => `--filter=${pkg.name}`);
  console.log(`Building ${packages.length} packages...`);
  execFileSync(bin('turbo'), ['run', 'build', ...filters, '--output-logs=errors-only'], { cwd: ROOT, env, stdio: 'inherit' });
}

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const tarballs = new Map();
for (const pkg of packages) {
  if (!existsSync(join(pkg.dir, 'dist'))) {
    console.error(`pack-packages: ${pkg.name} is not built (no dist/); run without --no-build.`);
    process.exit(1);
  }
  const output = execFileSync(PNPM, ['pack', '--pack-destination', OUT], { cwd: pkg.dir, env, encoding: 'utf8' });
  const file = output.trim().split(/\r?\n/).pop()?.trim() ?? '';
  tarballs.set(pkg.name, file);
}
console.log(`\nPacked ${tarballs.size} packages into ${OUT}:`);
for (const file of tarballs.values()) console.log(`  ${file.split(/[\\/]/).pop()}`);

/** A package and every @toolhost package it depends on, dependencies first (`seen`: already listed). */
function closure(name, seen = new Set()) {
  if (seen.has(name)) return [];
  seen.add(name);
  const pkg = byName.get(name);
  if (!pkg) return [];
  return [...pkg.dependsOn.flatMap((dependency) => closure(dependency, seen)), name];
}

console.log('\nInstall in any project (every @toolhost tarball needed, plus the required peer dependencies):');
const groups = [
  ['@toolhost/host', '@toolhost/cli'],
  ...packages
    .map((pkg) => pkg.name)
    .filter((name) => name.startsWith('@toolhost/adapter-'))
    .map((name) => [name]),
];
for (const names of groups) {
  if (!names.every((name) => byName.has(name))) continue;
  const seen = new Set();
  const members = names.flatMap((name) => closure(name, seen)).map((name) => byName.get(name));
  const files = members.map((pkg) => tarballs.get(pkg.name));
  const peers = [...new Set(members.flatMap((pkg) => pkg.peers))];
  const optional = [...new Set(members.flatMap((pkg) => pkg.optionalPeers))];
  console.log(`\n  # ${names.join(' and ')}\n  npm install ${[...files, ...peers].join(' ')}`);
  if (optional.length > 0) console.log(`  # optional, only for the features that need them: npm install ${optional.join(' ')}`);
}
