// Verdicts and the summary of one run of scripts/conformance.sh (one suite version, one scenario
// list). Node 22 runs it, without dependencies.
//
// Usage: node conformance-report.mjs <label> <run-dir> <scenarios-file> [<expected-failures-file> <extensions-file>]
//   <run-dir>/<slug>/        the runner's -o directory of one scenario (checks.json somewhere below)
//   <run-dir>/<slug>.exit    the runner's exit status; <run-dir>/<slug>.log its output
//   <scenarios-file>         the scenarios of the run, one per line, in order
//   <expected-failures-file> lines "<scenario> <reason>" ('#' comments); only extension scenarios
//                            (names in <extensions-file>) may be listed
//
// A scenario passes when the runner exited 0 (run without a baseline, its exit status counts
// failed and warning checks, a client that exited non-zero where the scenario does not allow it,
// and a timeout) and at least one check succeeded (a scenario whose checks were all skipped tested
// nothing). Exit status 1 when a scenario fails that is not an expected failure, when an expected
// failure passes (a stale entry), or when the expected-failures file is invalid.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [label, runDir, scenariosFile, expectedFile, extensionsFile] = process.argv.slice(2);
const lines = (file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
const slug = (scenario) => scenario.replaceAll('/', '__');

const scenarios = lines(scenariosFile);
const extensions = new Set(extensionsFile ? lines(extensionsFile) : []);
const expected = new Map();
const problems = [];
if (expectedFile) {
  for (const line of lines(expectedFile)) {
    const match = /^(\S+)\s+(\S.*)$/.exec(line);
    if (!match) {
      problems.push(`expected failure without a reason: "${line}"`);
      continue;
    }
    const [, scenario, reason] = match;
    if (!extensions.has(scenario))
      problems.push(`expected failure "${scenario}" is not an extension scenario of this suite; only extensions may be listed`);
    expected.set(scenario, reason);
  }
}

function findChecks(dir) {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (existsSync(join(path, 'checks.json'))) return path;
    const below = findChecks(path);
    if (below) return below;
  }
  return undefined;
}

const count = (checks, status) => checks.filter((check) => check.status === status).length;
const tail = (text, n) => text.trimEnd().split('\n').slice(-n);
let passed = 0;
let failed = 0;
let expectedFailed = 0;
const totals = { SUCCESS: 0, FAILURE: 0, WARNING: 0 };
const unexpected = [];
const stale = [];
for (const scenario of scenarios) {
  const base = join(runDir, slug(scenario));
  const exitFile = `${base}.exit`;
  const exitCode = existsSync(exitFile) ? Number(readFileSync(exitFile, 'utf8').trim()) : undefined;
  const resultDir = findChecks(base);
  const checks = resultDir ? JSON.parse(readFileSync(join(resultDir, 'checks.json'), 'utf8')) : [];
  for (const status of Object.keys(totals)) totals[status] += count(checks, status);
  const reasons = [];
  if (!resultDir) reasons.push('no checks recorded (scenario not run or skipped)');
  else if (count(checks, 'SUCCESS') === 0 && count(checks, 'FAILURE') === 0)
    reasons.push('no check succeeded (every check skipped: the client never exercised the scenario)');
  if (exitCode !== 0) {
    const bad = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
    for (const check of bad) reasons.push(`${check.status} ${check.id}: ${check.errorMessage ?? check.description}`);
    if (bad.length === 0)
      reasons.push(`runner exited ${exitCode ?? '(none)'} (client exit status, timeout or runner error; see ${base}.log)`);
  }
  const ok = reasons.length === 0;
  const reason = expected.get(scenario);
  const summary = `${count(checks, 'SUCCESS')} passed, ${count(checks, 'FAILURE')} failed, ${count(checks, 'WARNING')} warnings`;
  if (ok) {
    passed++;
    if (reason !== undefined) stale.push(scenario);
    console.log(`PASS ${scenario}: ${summary}${reason !== undefined ? ' (listed as an expected failure: remove the entry)' : ''}`);
    continue;
  }
  failed++;
  if (reason !== undefined) {
    expectedFailed++;
    console.log(`XFAIL ${scenario}: ${summary} (expected: ${reason})`);
  } else {
    unexpected.push(scenario);
    console.log(`FAIL ${scenario}: ${summary}`);
  }
  for (const line of reasons) console.log(`    ${line}`);
  if (reason === undefined && resultDir && existsSync(join(resultDir, 'stderr.txt'))) {
    for (const line of tail(readFileSync(join(resultDir, 'stderr.txt'), 'utf8'), 6)) console.log(`    | ${line}`);
  }
}
for (const problem of problems) console.log(`ERROR ${problem}`);
const extra = [
  expectedFailed ? `${expectedFailed} expected` : '',
  unexpected.length ? `${unexpected.length} unexpected` : '',
  stale.length ? `${stale.length} stale expected-failure entries` : '',
]
  .filter(Boolean)
  .join(', ');
console.log(
  `== ${label}: ${passed} passed, ${failed} failed of ${scenarios.length}${extra ? ` (${extra})` : ''}; checks: ${totals.SUCCESS} passed, ${totals.FAILURE} failed, ${totals.WARNING} warnings`,
);
process.exit(unexpected.length > 0 || stale.length > 0 || problems.length > 0 ? 1 : 0);
