// `npm publish --dry-run` on the tarball of every published package, as the release publishes them
// (scripts/pack-packages.mjs packs them with `pnpm pack`, as `changeset publish` does through
// `pnpm publish`). Fails on anything npm warns about or corrects, and on what npm lets through but a
// user would trip on: a `workspace:` or `catalog:` range left in a dependency, a `repository` that
// does not point at this repository and the package's folder, a version that differs from the
// others (the packages are one fixed group), a missing README or LICENSE, a `bin` that is missing or
// has no `#!` line. Prints one summary line per package.
//
// Usage: node scripts/pack-packages.mjs [--no-build] && node scripts/check-publish.mjs [--dir <folder>]
//   --dir  where the tarballs are (default .tmp/packages)
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const dirIndex = args.indexOf('--dir');
const DIR = resolve(dirIndex >= 0 && args[dirIndex + 1] ? args[dirIndex + 1] : join(ROOT, '.tmp', 'packages'));
// The only warning a dry run gives without npm credentials; the real publish runs logged in.
const EXPECTED_WARNING = /^npm warn publish This command requires you to be logged in to .* \(dry-run\)$/;

const rootManifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** The published packages of the workspace: folder name and manifest. */
const packages = readdirSync(join(ROOT, 'packages'))
  .sort()
  .map((dir) => ({ dir, manifestPath: join(ROOT, 'packages', dir, 'package.json') }))
  .filter(({ manifestPath }) => existsSync(manifestPath))
  .map(({ dir, manifestPath }) => ({ dir, manifest: JSON.parse(readFileSync(manifestPath, 'utf8')) }))
  .filter(({ manifest }) => manifest.private !== true);

/** The files of a .tgz (a gzipped ustar archive): path without the `package/` prefix → contents. */
function readTarball(file) {
  const archive = gunzipSync(readFileSync(file));
  const files = new Map();
  const text = (start, length) =>
    archive
      .subarray(start, start + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  for (let offset = 0; offset + 512 <= archive.length;) {
    const name = text(offset, 100);
    if (name === '') break;
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8);
    const prefix = text(offset + 345, 155);
    const type = text(offset + 156, 1);
    const path = (prefix ? `${prefix}/${name}` : name).replace(/^[^/]+\//, '');
    if (type === '0' || type === '') files.set(path, archive.subarray(offset + 512, offset + 512 + size));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** npm's environment without the settings of a `pnpm run`/`npm run` around this script. */
function npmEnvironment() {
  const keep = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_(config|package|lifecycle)_/i.test(key) || keep.has(key.toLowerCase())),
  );
}

/** `npm publish <tarball> --dry-run --json`, in an empty folder (no project settings apply). */
function dryRun(tarball, cwd) {
  return new Promise((done) => {
    execFile(
      'npm',
      ['publish', tarball, '--dry-run', '--json'],
      { cwd, env: npmEnvironment(), shell: process.platform === 'win32', maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => done({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Everything wrong with one package's tarball and its dry run. */
async function check({ dir, manifest }, tarballs, cwd) {
  const problems = [];
  const name = manifest.name;
  const tarball = tarballs.find((file) => file === `${name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`);
  if (!tarball) return { name, problems: [`no tarball ${name}@${manifest.version} in ${DIR}: run node scripts/pack-packages.mjs`] };

  const { code, stdout, stderr } = await dryRun(join(DIR, tarball), cwd);
  if (code !== 0) problems.push(`npm publish --dry-run exited with ${code}`);
  for (const line of stderr.split(/\r?\n/)) {
    if (/^npm (warn|error|ERR!)/i.test(line) && !EXPECTED_WARNING.test(line)) problems.push(line);
  }
  let report;
  try {
    const parsed = JSON.parse(stdout);
    report = parsed.name ? parsed : parsed[name]; // npm 10 prints the report, npm 11 keys it by name
  } catch {
    problems.push(`npm printed no JSON report: ${stdout.slice(0, 200)}`);
  }

  const files = readTarball(join(DIR, tarball));
  const packed = JSON.parse(files.get('package.json')?.toString('utf8') ?? '{}');
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dependency, range] of Object.entries(packed[field] ?? {})) {
      if (/^(workspace|catalog):/.test(String(range))) problems.push(`${field}.${dependency} is still "${range}"`);
    }
  }
  if (packed.version !== manifest.version) problems.push(`packed version ${packed.version} is not ${manifest.version}`);
  if (packed.repository?.url !== rootManifest.repository.url) {
    problems.push(`repository.url is ${JSON.stringify(packed.repository?.url)}, not ${rootManifest.repository.url}`);
  }
  if (packed.repository?.directory !== `packages/${dir}`) {
    problems.push(`repository.directory is ${JSON.stringify(packed.repository?.directory)}, not "packages/${dir}"`);
  }
  for (const required of ['README.md', 'LICENSE']) if (!files.has(required)) problems.push(`${required} is not in the tarball`);
  const bins = typeof packed.bin === 'string' ? { [name]: packed.bin } : (packed.bin ?? {});
  for (const [command, target] of Object.entries(bins)) {
    const contents = files.get(String(target).replace(/^\.\//, ''));
    if (!contents) problems.push(`bin "${command}": ${target} is not in the tarball`);
    else if (!contents.toString('utf8').startsWith('#!')) problems.push(`bin "${command}": ${target} has no #! line`);
  }
  return { name, version: packed.version, report, fileCount: files.size, problems: [...new Set(problems)] };
}

const kilobytes = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

async function main() {
  if (!existsSync(DIR)) {
    console.error(`check-publish: no ${DIR}: run node scripts/pack-packages.mjs first.`);
    process.exit(1);
  }
  const tarballs = readdirSync(DIR).filter((file) => file.endsWith('.tgz'));
  const cwd = mkdtempSync(join(tmpdir(), 'toolhost-publish-'));
  try {
    const results = [];
    const queue = [...packages];
    const worker = async () => {
      for (let pkg = queue.shift(); pkg; pkg = queue.shift()) results.push(await check(pkg, tarballs, cwd));
    };
    await Promise.all([worker(), worker(), worker()]);
    results.sort((a, b) => a.name.localeCompare(b.name));

    const versions = new Set(results.map((result) => result.version).filter(Boolean));
    const width = Math.max(...results.map((result) => `${result.name}@${result.version}`.length));
    console.log(`npm publish --dry-run, ${results.length} packages (${DIR}):`);
    for (const result of results) {
      const id = `${result.name}@${result.version}`.padEnd(width);
      const sizes = result.report
        ? `${String(result.fileCount).padStart(3)} files ${kilobytes(result.report.size).padStart(9)} packed ${kilobytes(result.report.unpackedSize).padStart(10)} unpacked`
        : '';
      console.log(`  ${id}  ${sizes}  ${result.problems.length === 0 ? 'ok' : `${result.problems.length} problem(s)`}`);
      for (const problem of result.problems) console.log(`      ${problem}`);
    }
    const failed = results.filter((result) => result.problems.length > 0);
    if (versions.size > 1) console.log(`the packages are one fixed group but have ${versions.size} versions: ${[...versions].join(', ')}`);
    if (failed.length > 0 || versions.size > 1) {
      console.log(`npm publish --dry-run: ${failed.length} of ${results.length} packages have problems.`);
      process.exitCode = 1;
    } else {
      console.log(`npm publish --dry-run: all ${results.length} packages clean, version ${[...versions][0]}.`);
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

await main();
