// A newcomer following docs/getting-started.md verbatim: a project with a server in its own
// ./.toolhost/settings.json, a folder not trusted yet, and each vendor's conversation loop copied
// from the page, run against a fake vendor API on loopback. The loop must print why the model
// got no tools and name a trust command that works; after running that command the model gets
// the server's tools.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const GUIDE = join(ROOT, 'docs', 'getting-started.md');
const FIXTURE_SERVER = join(ROOT, 'packages', 'fixtures', 'dist', 'bin', 'basic.js');
/** What the fake model answers, whatever it is asked. */
const ANSWER = 'The README says hello.';
/** Generous: a busy 2-core machine starts node, the host and a fixture server per run. */
const RUN_TIMEOUT_MS = 60_000;

/** The loops of section 5, by the start of their heading, and the script each becomes in the project. */
const LOOPS = [
  { heading: '### Gemini', file: 'gemini.js' },
  { heading: '### OpenAI Responses API', file: 'openai-responses.js' },
  { heading: '### OpenAI Chat Completions', file: 'openai-chat.js' },
  { heading: '### Anthropic Messages', file: 'anthropic.js' },
] as const;

/** The first ```ts block after the line that starts with `marker`. */
function blockAfter(markdown: string, marker: string): string {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((line) => line.startsWith(marker));
  if (start < 0) throw new Error(`docs/getting-started.md has no line starting with "${marker}"`);
  const open = lines.findIndex((line, index) => index > start && line.trim() === '```ts');
  const close = lines.findIndex((line, index) => index > open && line.trim() === '```');
  if (open < 0 || close < 0) throw new Error(`docs/getting-started.md has no ts block after "${marker}"`);
  return lines.slice(open + 1, close).join('\n');
}

/** A TypeScript snippet as the ES module a user's TypeScript build would emit. */
function toJavaScript(code: string): string {
  return ts.transpileModule(code, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
  }).outputText;
}

/** Where a package the snippets import is installed in this repository: a workspace package, or a copy some package installed. */
function packageFolder(name: string): string {
  for (const dir of readdirSync(join(ROOT, 'packages'))) {
    const manifest = join(ROOT, 'packages', dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) {
      return join(ROOT, 'packages', dir);
    }
  }
  for (const dir of readdirSync(join(ROOT, 'packages'))) {
    const candidate = join(ROOT, 'packages', dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
  }
  throw new Error(`no installed copy of ${name} in the workspace`);
}

/** Bare package names a module imports. */
function importedPackages(code: string): string[] {
  const names = new Set<string>();
  for (const match of code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'".][^'"]*)['"]/g)) {
    const specifier = match[1] ?? '';
    if (specifier.startsWith('node:')) continue;
    const parts = specifier.split('/');
    names.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier));
  }
  return [...names];
}

/** One request the fake vendor API received. */
interface VendorRequest {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** The fake answer of each vendor: plain text, no tool call. */
function vendorAnswer(path: string): unknown {
  if (path === '/v1/responses') {
    return {
      id: 'resp_1',
      object: 'response',
      created_at: 0,
      model: 'gpt-5-mini',
      status: 'completed',
      output: [
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: ANSWER, annotations: [] }],
        },
      ],
    };
  }
  if (path === '/v1/chat/completions') {
    return {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-5-mini',
      choices: [{ index: 0, message: { role: 'assistant', content: ANSWER, refusal: null }, finish_reason: 'stop', logprobs: null }],
    };
  }
  if (path === '/v1/messages') {
    return {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: ANSWER }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    };
  }
  if (path.endsWith(':generateContent')) {
    return { candidates: [{ index: 0, content: { role: 'model', parts: [{ text: ANSWER }] }, finishReason: 'STOP' }] };
  }
  return undefined;
}

/** The names of the tools a vendor request offers (every vendor's layout: `name`, `function.name`, `functionDeclarations[].name`). */
function offeredToolNames(request: VendorRequest | undefined): string[] {
  const names: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value !== null && typeof value === 'object') {
      const record = value as Record<string, unknown>;
      if (typeof record['name'] === 'string') names.push(record['name']);
      walk(record['function']);
      walk(record['functionDeclarations']);
    }
  };
  walk(request?.body['tools'] ?? (request?.body['config'] as Record<string, unknown> | undefined)?.['tools']);
  return names;
}

/** Run a command in the project, as the user would in a terminal; resolves with its exit code and output. */
async function run(
  command: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  try {
    const [code] = (await once(child, 'exit')) as [number | null];
    return { code, stdout, stderr };
  } finally {
    clearTimeout(timer);
  }
}

describe('the getting-started loops in a project folder that is not trusted yet', () => {
  let root: string;
  let project: string;
  let home: string;
  let api: Server;
  const requests: VendorRequest[] = [];
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    if (!existsSync(FIXTURE_SERVER)) throw new Error(`${FIXTURE_SERVER} is missing: build @toolhost-internal/fixtures first`);
    api = createServer((request, response) => {
      let raw = '';
      request.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      request.on('end', () => {
        const path = (request.url ?? '').split('?')[0] ?? '';
        requests.push({ path, body: JSON.parse(raw || '{}') as Record<string, unknown> });
        const answer = vendorAnswer(path);
        response.writeHead(answer === undefined ? 404 : 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer ?? { error: { message: `no fake for ${path}` } }));
      });
    });
    api.listen(0, '127.0.0.1');
    await once(api, 'listening');
    const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

    root = await mkdtemp(join(tmpdir(), 'toolhost-getting-started-'));
    home = join(root, 'home');
    project = join(root, 'app');
    await mkdir(home);
    // The newcomer's project: an ES module package with the packages installed, the guide's
    // ui.ts and loops, and one server in its own settings.
    await mkdir(join(project, '.toolhost'), { recursive: true });
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'my-agent', private: true, type: 'module' }));
    await writeFile(
      join(project, '.toolhost', 'settings.json'),
      JSON.stringify({ mcpServers: { files: { command: process.execPath, args: [FIXTURE_SERVER] } } }),
    );
    const guide = readFileSync(GUIDE, 'utf8');
    const modules = new Map<string, string>([['ui.js', toJavaScript(blockAfter(guide, '<!-- snippet-file: ui.ts -->'))]]);
    for (const loop of LOOPS) modules.set(loop.file, toJavaScript(blockAfter(guide, loop.heading)));
    const packages = new Set(['@toolhost/cli', ...[...modules.values()].flatMap(importedPackages)]);
    for (const name of packages) {
      const link = join(project, 'node_modules', name);
      await mkdir(dirname(link), { recursive: true });
      await symlink(packageFolder(name), link, process.platform === 'win32' ? 'junction' : 'dir');
    }
    // What `npm install @toolhost/cli` adds besides the package: its binary in node_modules/.bin.
    if (process.platform !== 'win32') {
      await mkdir(join(project, 'node_modules', '.bin'));
      await symlink(join('..', '@toolhost', 'cli', 'dist', 'bin.js'), join(project, 'node_modules', '.bin', 'toolhost'));
    }
    for (const [file, code] of modules) await writeFile(join(project, file), code);

    env = { PATH: process.env['PATH'], SYSTEMROOT: process.env['SYSTEMROOT'] };
    Object.assign(env, {
      HOME: home,
      USERPROFILE: home,
      // npx must never reach the registry: the command it is given is the project's.
      npm_config_offline: 'true',
      npm_config_cache: join(root, 'npm-cache'),
      npm_config_update_notifier: 'false',
      GEMINI_API_KEY: 'test-key',
      GOOGLE_GEMINI_BASE_URL: base,
      OPENAI_API_KEY: 'test-key',
      OPENAI_BASE_URL: `${base}/v1`,
      ANTHROPIC_API_KEY: 'test-key',
      ANTHROPIC_BASE_URL: base,
    });
  }, 60_000);

  afterAll(async () => {
    if (api) {
      api.closeAllConnections();
      api.close();
    }
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('each loop prints that the model gets no tools, which server was skipped, why, and the trust command; that command works', async () => {
    const folder = realpathSync(project);
    const runs = await Promise.all(LOOPS.map((loop) => run(process.execPath, [loop.file], { cwd: project, env })));
    for (const [index, result] of runs.entries()) {
      const loop = LOOPS[index];
      // stderr is the vendor SDK's (a deprecation notice of the model the guide names), not ours.
      expect({ loop: loop?.file, code: result.code }, result.stderr).toEqual({ loop: loop?.file, code: 0 });
      expect(result.stdout).toBe(
        [
          'MCP: the model gets no tools (0 of 1 configured server connected); skipped:',
          `  - MCP server "files" comes from the settings of the project folder ${folder}, which is not trusted, so it is not started. If you trust this folder, run "npx @toolhost/cli trust" in ${folder}.`,
          ANSWER,
          '',
        ].join('\n'),
      );
    }
    // Every vendor was asked, with no tool offered.
    expect(requests.map((request) => request.path).sort()).toEqual(
      ['/v1/chat/completions', '/v1/messages', '/v1/responses', '/v1beta/models/gemini-2.5-flash:generateContent'].sort(),
    );
    for (const request of requests) expect(offeredToolNames(request)).toEqual([]);

    // The command the message names, run as the newcomer would in that folder (npx finds the
    // project's @toolhost/cli; on Windows, whose npx is a .cmd shim, its binary directly).
    const trusted =
      process.platform === 'win32'
        ? await run(process.execPath, [join(project, 'node_modules', '@toolhost', 'cli', 'dist', 'bin.js'), 'trust'], { cwd: project, env })
        : await run('npx', ['@toolhost/cli', 'trust'], { cwd: project, env });
    expect({ code: trusted.code, stderr: trusted.stderr }).toEqual({ code: 0, stderr: '' });
    expect(trusted.stdout).toContain(`Trusted ${folder}`);

    requests.length = 0;
    const again = await run(process.execPath, ['openai-responses.js'], { cwd: project, env });
    expect(again.code, again.stderr).toBe(0);
    const offered = offeredToolNames(requests[0]);
    expect(offered.length).toBeGreaterThan(0);
    expect(again.stdout).toBe(
      [`MCP: the model gets ${offered.length} tools (1 of 1 configured server connected: "files").`, ANSWER, ''].join('\n'),
    );
  }, 180_000);
});
