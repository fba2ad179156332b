// Checks the changesets in .changeset/ before they reach a Version Packages pull request: each names
// only published workspace packages, with `patch` or `minor` while the packages are 0.x (`major`
// would publish 1.0.0), and says what changed. Prints the pending changesets and what the next
// release would be.
//
// Usage: node scripts/check-changesets.mjs   (exit code 1 on a problem, each one named)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FOLDER = join(ROOT, '.changeset');
const BUMPS = ['patch', 'minor', 'major'];

/** Published workspace packages by name, with their current version. */
const published = new Map(
  readdirSync(join(ROOT, 'packages'))
    .map((dir) => join(ROOT, 'packages', dir, 'package.json'))
    .filter((path) => existsSync(path))
    .map((path) => JSON.parse(readFileSync(path, 'utf8')))
    .filter((manifest) => manifest.private !== true)
    .map((manifest) => [manifest.name, manifest.version]),
);

const problems = [];
const pending = [];
for (const file of readdirSync(FOLDER).sort()) {
  if (!file.endsWith('.md') || /^readme\.md$/i.test(file) || file.startsWith('.')) continue;
  const text = readFileSync(join(FOLDER, file), 'utf8');
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
  if (!match) {
    problems.push(`.changeset/${file}: no frontmatter (--- "@toolhost/<package>": patch|minor --- at the top)`);
    continue;
  }
  const [, frontmatter, body] = match;
  if (body.trim() === '') problems.push(`.changeset/${file}: say what changed, why, and what a consumer must do (the body is empty)`);
  for (const line of frontmatter.split(/\r?\n/).filter((entry) => entry.trim() !== '')) {
    const entry = /^\s*(["']?)(@?[^"':\s]+)\1\s*:\s*(\S+)\s*$/.exec(line);
    if (!entry) {
      problems.push(`.changeset/${file}: cannot read the line ${JSON.stringify(line)} (expected "@toolhost/<package>": patch|minor)`);
      continue;
    }
    const [, , name, bump] = entry;
    const version = published.get(name);
    if (version === undefined) {
      problems.push(`.changeset/${file}: ${name} is not a published package of this workspace`);
    } else if (!BUMPS.includes(bump)) {
      problems.push(`.changeset/${file}: ${name}: "${bump}" is not patch, minor or major`);
    } else if (bump === 'major' && version.startsWith('0.')) {
      problems.push(`.changeset/${file}: ${name}: "major" would publish 1.0.0; while the packages are 0.x a breaking change is "minor"`);
    } else {
      pending.push({ file, name, bump, version });
    }
  }
}

if (pending.length === 0) {
  console.log('No pending changesets: the next push to main publishes every version that is not on npm yet.');
} else {
  // The @toolhost packages are one fixed group: the largest bump applies to all of them.
  const largest = BUMPS[Math.max(...pending.map((change) => BUMPS.indexOf(change.bump)))];
  const [major, minor, patch] = [...published.values()][0].split('.').map(Number);
  const next =
    largest === 'major' ? `${major + 1}.0.0` : largest === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
  const files = new Set(pending.map((change) => change.file));
  console.log(
    `${files.size} pending changeset${files.size === 1 ? '' : 's'}; the next Version Packages pull request makes every @toolhost package ${next} (${largest}).`,
  );
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
