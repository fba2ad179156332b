// One error family across the published API: every error class any @toolhost/* package exports
// extends the contract's ToolhostError, lists its codes (all in ERROR_CODES) and has a family
// name of its own; docs/errors.md lists every code and is exactly what its generator writes.
// Packages are found on disk, so a new package is checked without editing this file.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ERROR_CODES, ToolhostError, isErrorCode } from '@toolhost/contract';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PACKAGES_DIR = join(ROOT, 'packages');

interface PackageJson {
  readonly name: string;
  readonly private?: boolean;
  readonly devDependencies?: Readonly<Record<string, string>>;
}

function readPackageJson(path: string): PackageJson {
  return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
}

/** Every package under packages/ that is published (no `"private": true`). */
const PUBLISHED = readdirSync(PACKAGES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((entry) => {
    try {
      return [readPackageJson(join(PACKAGES_DIR, entry.name, 'package.json'))];
    } catch {
      return [];
    }
  })
  .filter((pkg) => pkg.private !== true)
  .map((pkg) => pkg.name)
  .sort();

type ErrorClass = (abstract new (...args: never[]) => Error) & { readonly family?: unknown; readonly codes?: unknown };

/** A value a package exports that is a class of errors (a function whose prototype is an Error). */
function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error;
}

const loaded = new Map<string, Promise<Record<string, unknown>>>();
function load(name: string): Promise<Record<string, unknown>> {
  let module = loaded.get(name);
  if (!module) {
    module = import(name) as Promise<Record<string, unknown>>;
    loaded.set(name, module);
  }
  return module;
}

/** The error classes `name` exports, by export name (the base ToolhostError itself excluded). */
async function errorClassesOf(name: string): Promise<Map<string, ErrorClass>> {
  const classes = new Map<string, ErrorClass>();
  for (const [exportName, value] of Object.entries(await load(name))) {
    if (isErrorClass(value) && value !== (ToolhostError as unknown)) classes.set(exportName, value);
  }
  return classes;
}

/** What is wrong with one exported error class; empty when it belongs to the family. */
function problemsOf(exportName: string, errorClass: ErrorClass): string[] {
  const problems: string[] = [];
  if (!Object.prototype.isPrototypeOf.call(ToolhostError.prototype, errorClass.prototype)) {
    problems.push(`${exportName} does not extend ToolhostError from @toolhost/contract`);
  }
  const codes = errorClass.codes;
  if (!Array.isArray(codes) || codes.length === 0) {
    problems.push(`${exportName} has no non-empty static codes array`);
  } else {
    const unknown = codes.filter((code) => !isErrorCode(code));
    if (unknown.length > 0) problems.push(`${exportName}.codes has codes that are not in ERROR_CODES: ${unknown.join(', ')}`);
  }
  const family = errorClass.family;
  if (!Object.prototype.hasOwnProperty.call(errorClass, 'family') || typeof family !== 'string' || family === '') {
    problems.push(`${exportName} declares no static family of its own`);
  }
  return problems;
}

describe('the published packages', () => {
  it('are all devDependencies of this package, so each can be imported here', () => {
    const own = readPackageJson(join(PACKAGES_DIR, 'api-tests', 'package.json'));
    expect(PUBLISHED.length).toBeGreaterThan(0);
    // Other devDependencies are the peers a published package needs to be imported (@langchain/core).
    const toolhost = Object.keys(own.devDependencies ?? {}).filter((name) => name.startsWith('@toolhost/'));
    expect(toolhost.sort()).toEqual(PUBLISHED);
  });
});

describe.each(PUBLISHED)('%s', (name) => {
  it('exports only error classes of the toolhost error family', async () => {
    const problems: string[] = [];
    for (const [exportName, errorClass] of await errorClassesOf(name)) problems.push(...problemsOf(exportName, errorClass));
    expect(problems).toEqual([]);
  });
});

describe('error families', () => {
  it('each family name belongs to exactly one class (a class re-exported elsewhere counts once)', async () => {
    const classesByFamily = new Map<string, Set<ErrorClass>>();
    const where = new Map<ErrorClass, string[]>();
    for (const name of PUBLISHED) {
      const classes = await errorClassesOf(name).catch(() => new Map<string, ErrorClass>());
      for (const [exportName, errorClass] of classes) {
        where.set(errorClass, [...(where.get(errorClass) ?? []), `${name}:${exportName}`]);
        if (typeof errorClass.family !== 'string') continue;
        classesByFamily.set(errorClass.family, (classesByFamily.get(errorClass.family) ?? new Set()).add(errorClass));
      }
    }
    const shared = [...classesByFamily]
      .filter(([, classes]) => classes.size > 1)
      .map(([family, classes]) => `${family}: ${[...classes].map((errorClass) => (where.get(errorClass) ?? []).join(' = ')).join(', ')}`);
    expect(shared).toEqual([]);
  });
});

describe('docs/errors.md', () => {
  const docsPath = join(ROOT, 'docs', 'errors.md');

  it('lists every code of ERROR_CODES', () => {
    const docs = readFileSync(docsPath, 'utf8');
    const missing = Object.keys(ERROR_CODES).filter((code) => !docs.includes(`| \`${code}\` |`));
    expect(missing).toEqual([]);
  });

  it('is exactly what scripts/generate-error-docs.mjs writes (run `pnpm run docs:errors` after changing the catalogue)', async () => {
    const generator = pathToFileURL(join(ROOT, 'scripts', 'generate-error-docs.mjs')).href;
    const { generateErrorDocs } = (await import(generator)) as { generateErrorDocs: () => Promise<string> };
    expect(readFileSync(docsPath, 'utf8')).toBe(await generateErrorDocs());
  });
});
