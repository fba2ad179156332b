// Type-checks every ```ts block of the documentation, so the docs run as pasted.
//
// Files: README.md, docs/*.md and the READMEs of the published packages. Each ```ts (or ```typescript) block
// becomes its own ES module in .tmp/doc-snippets/ and `tsc --noEmit` checks them all under
// tsconfig.base.json (strict). Imports resolve like in a user's project: @toolhost/* to the
// workspace packages (their built types, so build first), and any other package a snippet
// imports (@google/genai, openai, @anthropic-ai/sdk, @modelcontextprotocol/client, ...) to the copy
// installed in one of the workspace packages' node_modules.
//
// A block that is a fragment declares its context just before it, in an HTML comment (not
// rendered), naming contexts defined below and/or giving declarations of its own:
//
//   <!-- snippet-context: host, ui -->
//   <!-- snippet-context: host
//   declare const response: import('@google/genai').GenerateContentResponse;
//   -->
//
// or in a leading `// snippet-context: host, ui` comment inside the block. Each markdown file's
// snippets share one folder; `<!-- snippet-file: ui.ts -->` names the next block's module, so
// later blocks of the same file can import it (`import { ui } from './ui.js'`). A block that cannot
// compile at all (an excerpt of an interface, pseudo-code) is marked ```ts ignore-check <reason>;
// the reason is required.
//
// Usage: node scripts/check-doc-snippets.mjs [--list]   (--list prints every snippet checked)
// Errors are reported as <markdown file>:<line>:<column> with the TypeScript message.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, '.tmp', 'doc-snippets');

/**
 * Named contexts for `snippet-context: <name>`. Types are written as `import('...').X` so a
 * context never clashes with the snippet's own imports.
 */
const CONTEXTS = {
  // A host, created and discovered, for snippets about one of its groups.
  host: `declare const host: import('@toolhost/host').McpToolHost;`,
  // UI hooks of the application.
  ui: `declare const ui: import('@toolhost/contract').UiHooks;`,
  // The application's confirmation dialog.
  confirm: `declare function confirm(request: import('@toolhost/contract').ConfirmationRequest, options: { readonly signal?: AbortSignal }): Promise<import('@toolhost/contract').ConfirmationAnswer>;`,
  // A model adapter (any vendor).
  adapter: `declare const adapter: import('@toolhost/contract').ModelAdapter;`,
  // The project folder.
  projectDir: `declare const projectDir: string;`,
  // An abort signal.
  signal: `declare const signal: AbortSignal;`,
  // An MCP SDK client and transport.
  client: `declare const client: import('@modelcontextprotocol/client').Client;
declare const transport: import('@modelcontextprotocol/client').Transport;`,
  // An mcpServers entry.
  entry: `declare const entry: import('@toolhost/config').McpServerConfig;`,
};

/** Context for generated files, which cannot carry a comment of their own (keep it minimal). */
const FILE_CONTEXTS = {
  // Written by scripts/generate-error-docs.mjs: its example calls the application's `run()`.
  'docs/errors.md': `declare function run(): Promise<void>;`,
};

function markdownFiles() {
  const files = [join(ROOT, 'README.md')];
  for (const name of readdirSync(join(ROOT, 'docs')).sort()) {
    if (name.endsWith('.md')) files.push(join(ROOT, 'docs', name));
  }
  // The READMEs of the published packages (those npm shows); internal packages are not checked.
  for (const name of readdirSync(join(ROOT, 'packages')).sort()) {
    const readme = join(ROOT, 'packages', name, 'README.md');
    const manifestPath = join(ROOT, 'packages', name, 'package.json');
    if (!existsSync(readme) || !existsSync(manifestPath)) continue;
    if (JSON.parse(readFileSync(manifestPath, 'utf8')).private !== true) files.push(readme);
  }
  return files;
}

/** Every ```ts block of one markdown file, with the context declared for it. */
function extractSnippets(file) {
  const rel = relative(ROOT, file).split('\\').join('/');
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const snippets = [];
  const problems = [];
  let pending; // { names, code, line, file } from HTML comments, for the next block
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const comment = /^\s*<!--\s*snippet-(context|file)\b:?(.*)$/.exec(line);
    if (comment) {
      const start = i;
      let body = comment[2] ?? '';
      let closed = body.includes('-->');
      const collected = [];
      if (closed) body = body.slice(0, body.indexOf('-->'));
      while (!closed && i + 1 < lines.length) {
        i++;
        const next = lines[i] ?? '';
        if (next.includes('-->')) {
          collected.push(next.slice(0, next.indexOf('-->')));
          closed = true;
        } else {
          collected.push(next);
        }
      }
      pending ??= { names: [], code: '', line: start + 1 };
      if (comment[1] === 'file') {
        pending.file = body.trim();
      } else {
        pending.names.push(...splitNames(body));
        pending.code = [pending.code, collected.join('\n')].filter(Boolean).join('\n');
        pending.line = start + 1;
      }
      continue;
    }
    const fence = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/.exec(line);
    if (!fence) {
      if (line.trim() !== '' && pending) pending = undefined; // a context only applies to the very next block
      continue;
    }
    const [, indent = '', marker = '```', lang = '', info = ''] = fence;
    const body = [];
    const startLine = i + 2; // 1-based line of the block's first line of code
    for (i++; i < lines.length; i++) {
      const inner = lines[i] ?? '';
      const trimmed = inner.trim();
      if (trimmed.length >= marker.length && trimmed === (marker[0] ?? '`').repeat(trimmed.length)) break;
      body.push(inner.startsWith(indent) ? inner.slice(indent.length) : inner.trimStart());
    }
    const context = pending;
    pending = undefined;
    if (lang !== 'ts' && lang !== 'typescript') continue;
    const ignore = /^ignore-check\b(.*)$/.exec(info.trim());
    if (ignore) {
      if (!ignore[1]?.trim())
        problems.push(`${rel}:${startLine - 1}: "ts ignore-check" needs a reason after it (why this block cannot compile)`);
      snippets.push({ file: rel, line: startLine, ignored: true });
      continue;
    }
    const names = [...(context?.names ?? [])];
    const inBlock = /^\s*\/\/\s*snippet-context:(.*)$/.exec(body[0] ?? '');
    if (inBlock) names.push(...splitNames(inBlock[1] ?? ''));
    for (const name of names) {
      if (!(name in CONTEXTS)) {
        problems.push(
          `${rel}:${context?.line ?? startLine}: unknown snippet context "${name}" (known: ${Object.keys(CONTEXTS).join(', ')})`,
        );
      }
    }
    const prelude = [FILE_CONTEXTS[rel] ?? '', ...names.map((name) => CONTEXTS[name] ?? ''), context?.code ?? '']
      .filter((part) => part.trim() !== '')
      .join('\n');
    if (context?.file !== undefined && !/^[\w.-]+\.ts$/.test(context.file)) {
      problems.push(`${rel}:${context.line}: snippet-file must be a plain file name ending in .ts, not "${context.file}"`);
    }
    snippets.push({ file: rel, line: startLine, code: body.join('\n'), prelude, contextLine: context?.line, moduleName: context?.file });
  }
  return { snippets, problems };
}

function splitNames(text) {
  return text
    .split(/[\s,]+/)
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Bare module specifiers a snippet imports (`import ... from 'x'`, `import('x')`). */
function importedPackages(code) {
  const names = new Set();
  for (const match of code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'".][^'"]*)['"]/g)) {
    const specifier = match[1] ?? '';
    if (specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier));
  }
  return names;
}

/** node_modules/<name> links: @toolhost/* to the workspace packages, anything else to an installed copy. */
function linkPackages(snippets) {
  const modules = join(OUT, 'node_modules');
  const workspace = new Map();
  for (const dir of readdirSync(join(ROOT, 'packages')).sort()) {
    const manifestPath = join(ROOT, 'packages', dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    workspace.set(manifest.name, join(ROOT, 'packages', dir));
  }
  const wanted = new Set();
  for (const snippet of snippets) {
    for (const name of importedPackages(`${snippet.prelude}\n${snippet.code}`)) wanted.add(name);
  }
  for (const name of workspace.keys()) if (name.startsWith('@toolhost/')) wanted.add(name);
  const missing = [];
  for (const name of [...wanted].sort()) {
    let target = workspace.get(name);
    if (!target) {
      const homes = [join(ROOT, 'node_modules'), ...[...workspace.values()].map((dir) => join(dir, 'node_modules'))];
      target = homes.map((home) => join(home, name)).find((candidate) => existsSync(join(candidate, 'package.json')));
    }
    if (!target) {
      missing.push(name);
      continue;
    }
    const link = join(modules, name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(target, link, process.platform === 'win32' ? 'junction' : 'dir');
  }
  return missing;
}

function slug(file) {
  return file
    .replace(/\.md$/, '')
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function main() {
  const list = process.argv.includes('--list');
  const all = [];
  const problems = [];
  for (const file of markdownFiles()) {
    const result = extractSnippets(file);
    all.push(...result.snippets);
    problems.push(...result.problems);
  }
  const checked = all.filter((snippet) => !snippet.ignored);
  const ignored = all.filter((snippet) => snippet.ignored);

  const notBuilt = readdirSync(join(ROOT, 'packages')).filter((dir) => {
    const manifestPath = join(ROOT, 'packages', dir, 'package.json');
    if (!existsSync(manifestPath)) return false;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    return !manifest.private && !existsSync(join(ROOT, 'packages', dir, 'dist'));
  });
  if (notBuilt.length > 0) {
    console.error(
      `check-doc-snippets: build the packages first (pnpm build); no dist/ in ${notBuilt.map((d) => `packages/${d}`).join(', ')}`,
    );
    process.exit(1);
  }

  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'package.json'), `${JSON.stringify({ name: 'doc-snippets', private: true, type: 'module' }, null, 2)}\n`);
  writeFileSync(
    join(OUT, 'tsconfig.json'),
    `${JSON.stringify(
      {
        extends: relative(OUT, join(ROOT, 'tsconfig.base.json')).split('\\').join('/'),
        compilerOptions: { noEmit: true, declaration: false, sourceMap: false },
        include: ['*/*.ts'],
      },
      null,
      2,
    )}\n`,
  );
  const byModule = new Map();
  for (const snippet of checked) {
    // One folder per markdown file, so a snippet can import another of the same page by the
    // name a `snippet-file` comment gave it (`import { ui } from './ui.js'`).
    const folder = slug(snippet.file);
    const name = snippet.moduleName ?? `L${snippet.line}.ts`;
    const path = `${folder}/${name}`;
    if (byModule.has(path))
      problems.push(`${snippet.file}:${snippet.contextLine ?? snippet.line}: two snippets of this file are both named ${name}`);
    const preludeLines = snippet.prelude ? snippet.prelude.split('\n').length : 0;
    const text = `${snippet.prelude ? `${snippet.prelude}\n` : ''}${snippet.code}\nexport {};\n`;
    mkdirSync(join(OUT, folder), { recursive: true });
    writeFileSync(join(OUT, folder, name), text);
    byModule.set(path, { ...snippet, preludeLines });
    if (list) console.log(`${snippet.file}:${snippet.line}  ${path}`);
  }
  // Every named context is compiled on its own too, so an unused one cannot go stale.
  mkdirSync(join(OUT, '_contexts'), { recursive: true });
  for (const [name, code] of Object.entries(CONTEXTS)) {
    writeFileSync(join(OUT, '_contexts', `${name}.ts`), `${code}\nexport {};\n`);
    byModule.set(`_contexts/${name}.ts`, { file: 'scripts/check-doc-snippets.mjs', line: 1, preludeLines: 0, contextName: name });
  }
  const missing = linkPackages([...checked, ...Object.values(CONTEXTS).map((code) => ({ prelude: code, code: '' }))]);
  for (const name of missing) problems.push(`a snippet imports "${name}", which no workspace package has installed`);

  let output = '';
  try {
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(OUT, 'tsconfig.json'), '--pretty', 'false'],
      {
        cwd: OUT,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
  } catch (error) {
    output = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    if (!output.trim()) throw error;
  }

  const errors = [];
  let current;
  for (const line of output.split(/\r?\n/)) {
    const match = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (match) {
      const [, path = '', tsLine = '0', column = '0', code, message] = match;
      const snippet = byModule.get(path.split(/[\\/]/).slice(-2).join('/'));
      if (!snippet) {
        current = `${path}:${tsLine}:${column} - error ${code}: ${message}`;
      } else {
        const offset = Number(tsLine) - 1 - snippet.preludeLines;
        const where =
          offset < 0
            ? `${snippet.file}:${snippet.contextLine ?? snippet.line - 1}:1 (in the snippet context of the block at line ${snippet.line})`
            : `${snippet.file}:${snippet.line + offset}:${column}`;
        current = `${where} - error ${code}: ${message}`;
      }
      errors.push(current);
    } else if (line.trim() && current !== undefined) {
      errors[errors.length - 1] += `\n    ${line.trim()}`;
    }
  }

  for (const problem of problems) console.error(problem);
  for (const error of errors) console.error(error);
  const files = new Set(all.map((snippet) => snippet.file)).size;
  const summary = `${checked.length} TypeScript snippets from ${files} markdown files type-checked (strict)${
    ignored.length ? `, ${ignored.length} marked ignore-check` : ''
  }`;
  if (errors.length > 0 || problems.length > 0) {
    console.error(`\n${summary}: ${errors.length} type errors, ${problems.length} other problems.`);
    process.exit(1);
  }
  console.log(`${summary}: no errors.`);
}

main();
