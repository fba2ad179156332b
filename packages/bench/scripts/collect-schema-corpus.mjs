#!/usr/bin/env node
/* global process, console, setTimeout, clearTimeout */
// Collect the real `tools/list` entries of published MCP servers (name, title, description,
// annotations, input schema) into corpus/real-tool-schemas.json: the sanitizer benchmark's corpus
// and the tool search benchmark's catalogue. The servers are installed at the
// versions pinned in SERVERS into a scratch folder (npm, lifecycle scripts off), so they never enter
// the workspace lockfile; --modules-dir uses an existing node_modules instead.
//
//   node packages/bench/scripts/collect-schema-corpus.mjs [--modules-dir=<node_modules>] [--out=<file>] [--check]
//
// Each server is started over stdio with the SDK's minimal environment, a throw-away HOME and
// working folder, no credentials, and (on Linux, when `unshare -n` works) in a network namespace
// without network, so a server that needs a key or the network to list its tools is reported as
// skipped instead of being given one. --check lists every server and compares with the file
// without writing it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';

const benchDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The servers tried, in output order. `args`/`env` receive the per-server scratch folder. A server
 * that cannot list its tools without a key is not tried; see SKIPPED_ON_PURPOSE.
 */
const SERVERS = [
  { server: 'everything', package: '@modelcontextprotocol/server-everything', version: '2026.8.31', args: () => ['stdio'] },
  { server: 'filesystem', package: '@modelcontextprotocol/server-filesystem', version: '2026.8.31', args: (dir) => [dir] },
  {
    server: 'memory',
    package: '@modelcontextprotocol/server-memory',
    version: '2026.8.31',
    env: (dir) => ({ MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }),
  },
  { server: 'sequential-thinking', package: '@modelcontextprotocol/server-sequential-thinking', version: '2026.8.31' },
  { server: 'github', package: '@modelcontextprotocol/server-github', version: '2025.4.8' },
  { server: 'puppeteer', package: '@modelcontextprotocol/server-puppeteer', version: '2025.5.12' },
  { server: 'playwright', package: '@playwright/mcp', version: '0.0.83', args: (dir) => ['--headless', '--isolated', '--output-dir', dir] },
  {
    server: 'chrome-devtools',
    package: 'chrome-devtools-mcp',
    version: '1.11.0',
    bin: 'chrome-devtools-mcp',
    args: () => ['--headless', '--isolated', '--no-usage-statistics'],
  },
  { server: 'context7', package: '@upstash/context7-mcp', version: '4.1.1' },
  { server: 'notion', package: '@notionhq/notion-mcp-server', version: '2.5.2' },
  { server: 'mongodb', package: 'mongodb-mcp-server', version: '3.0.4' },
  { server: 'aws-kb-retrieval', package: '@modelcontextprotocol/server-aws-kb-retrieval', version: '0.6.2' },
  { server: 'firecrawl', package: 'firecrawl-mcp', version: '3.26.0' }, // keyless mode lists every tool
];

/** Packages tried and left out, with the reason (kept in the output for the record). */
const SKIPPED_ON_PURPOSE = [
  { package: '@modelcontextprotocol/server-gitlab', reason: 'exits at start-up without GITLAB_PERSONAL_ACCESS_TOKEN' },
  { package: '@modelcontextprotocol/server-slack', reason: 'exits at start-up without SLACK_BOT_TOKEN and SLACK_TEAM_ID' },
  { package: '@modelcontextprotocol/server-brave-search', reason: 'exits at start-up without BRAVE_API_KEY' },
  { package: '@modelcontextprotocol/server-google-maps', reason: 'exits at start-up without GOOGLE_MAPS_API_KEY' },
  { package: '@modelcontextprotocol/server-everart', reason: 'exits at start-up without EVERART_API_KEY' },
];

const LIST_TIMEOUT_MS = 60_000;

/** Installs every server at its pinned version into `dir` and returns its node_modules. */
function installServers(dir) {
  const specs = SERVERS.map((entry) => `${entry.package}@${entry.version}`);
  console.error(`installing ${specs.length} servers into ${dir}`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', '--prefix', dir, ...specs], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`npm install of the corpus servers failed (exit ${result.status})`);
  return join(dir, 'node_modules');
}

function readPackageJson(modulesDir, name) {
  return JSON.parse(readFileSync(join(modulesDir, name, 'package.json'), 'utf8'));
}

function binPath(modulesDir, entry, pkg) {
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.[entry.bin ?? Object.keys(pkg.bin ?? {})[0]];
  if (!bin) throw new Error(`${entry.package} has no bin`);
  return join(modulesDir, entry.package, bin);
}

/** `['unshare', '-n']` (root) or `['unshare', '-rn']` (user namespace) when that runs here, else none. */
function noNetworkPrefix() {
  if (process.platform !== 'linux') return [];
  for (const flags of [['-n'], ['-rn']]) {
    const probe = spawnSync('unshare', [...flags, process.execPath, '-e', ''], { stdio: 'ignore' });
    if (probe.status === 0) return ['unshare', ...flags];
  }
  return [];
}

async function listTools(entry, modulesDir, prefix) {
  const pkg = readPackageJson(modulesDir, entry.package);
  const scratch = mkdtempSync(join(tmpdir(), `schema-corpus-${entry.server}-`));
  const command = [...prefix, process.execPath, binPath(modulesDir, entry, pkg), ...(entry.args?.(scratch) ?? [])];
  const transport = new StdioClientTransport({
    command: command[0],
    args: command.slice(1),
    env: { ...getDefaultEnvironment(), HOME: scratch, ...(entry.env?.(scratch) ?? {}) },
    cwd: scratch,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr = (stderr + String(chunk)).slice(-2000);
  });
  const client = new Client({ name: 'toolhost-schema-corpus', version: '0.0.0' }, { capabilities: {} });
  const timer = setTimeout(() => void client.close(), LIST_TIMEOUT_MS);
  try {
    await client.connect(transport, { timeout: LIST_TIMEOUT_MS });
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: LIST_TIMEOUT_MS });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return {
      version: pkg.version,
      serverInfo: client.getServerVersion(),
      tools: tools.map((tool) => ({
        name: tool.name,
        ...(tool.title === undefined ? {} : { title: tool.title }),
        ...(tool.description === undefined ? {} : { description: tool.description }),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        inputSchema: tool.inputSchema,
      })),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${message}${stderr ? `; stderr: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : ''}`);
  } finally {
    clearTimeout(timer);
    await client.close().catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Whether a schema uses `$ref`, `$defs` or `definitions` anywhere (as keywords, not property names). */
export function schemaKeywordUse(schema) {
  const found = { $ref: 0, $defs: 0, definitions: 0 };
  const visit = (node, inPropertyMap) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, false);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (!inPropertyMap && key in found) found[key] += 1;
      visit(value, !inPropertyMap && (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions'));
    }
  };
  visit(schema, false);
  return found;
}

function summarise(corpus) {
  const counts = {
    tools: corpus.tools.length,
    servers: corpus.servers.length,
    withRef: 0,
    withDefs: 0,
    withDefinitions: 0,
    withAny: 0,
    refs: 0,
  };
  for (const tool of corpus.tools) {
    const use = schemaKeywordUse(tool.inputSchema);
    if (use.$ref > 0) counts.withRef += 1;
    if (use.$defs > 0) counts.withDefs += 1;
    if (use.definitions > 0) counts.withDefinitions += 1;
    if (use.$ref + use.$defs + use.definitions > 0) counts.withAny += 1;
    counts.refs += use.$ref;
  }
  return counts;
}

async function main() {
  const { values } = parseArgs({
    options: {
      'modules-dir': { type: 'string' },
      out: { type: 'string', default: join(benchDir, 'corpus', 'real-tool-schemas.json') },
      check: { type: 'boolean', default: false },
    },
  });
  const installDir = values['modules-dir'] === undefined ? mkdtempSync(join(tmpdir(), 'schema-corpus-install-')) : undefined;
  const modulesDir = installDir === undefined ? resolve(values['modules-dir']) : installServers(installDir);
  const prefix = noNetworkPrefix();
  console.error(
    prefix.length > 0
      ? `servers run without network (${prefix.join(' ')})`
      : 'WARNING: unshare not available, servers run with the network',
  );
  const servers = [];
  const tools = [];
  const skipped = [...SKIPPED_ON_PURPOSE];
  for (const entry of SERVERS) {
    process.stderr.write(`${entry.package}... `);
    try {
      const listed = await listTools(entry, modulesDir, prefix);
      servers.push({ server: entry.server, package: entry.package, version: listed.version, tools: listed.tools.length });
      for (const tool of listed.tools)
        tools.push({
          server: entry.server,
          package: entry.package,
          version: listed.version,
          name: tool.name,
          ...(tool.title === undefined ? {} : { title: tool.title }),
          ...(tool.description === undefined ? {} : { description: tool.description }),
          ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
          inputSchema: tool.inputSchema,
        });
      console.error(`${listed.tools.length} tools`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      skipped.push({ package: entry.package, reason });
      console.error(`skipped: ${reason}`);
    }
  }
  if (installDir !== undefined) rmSync(installDir, { recursive: true, force: true });
  const corpus = {
    description:
      'tools/list entries (name, title, description, annotations, inputSchema) of published MCP servers from the npm registry, listed over stdio without credentials or network by scripts/collect-schema-corpus.mjs',
    servers,
    skipped,
    tools,
  };
  const counts = summarise(corpus);
  console.error(
    `${counts.tools} tools from ${counts.servers} servers; schemas with $ref: ${counts.withRef} (${counts.refs} $refs), $defs: ${counts.withDefs}, definitions: ${counts.withDefinitions}, any of them: ${counts.withAny}`,
  );
  const text = `${JSON.stringify(corpus, null, 2)}\n`;
  if (values.check) {
    const current = readFileSync(values.out, 'utf8');
    if (current !== text) {
      console.error(`${values.out} differs from what the servers list now; run without --check to update it`);
      process.exitCode = 1;
    }
    return;
  }
  writeFileSync(values.out, text);
  console.error(`wrote ${values.out}`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
