import { readFileSync } from 'node:fs';

/** One tool of the corpus: a published MCP server's tool as its `tools/list` gave it (fields it did not send are absent). */
export interface CorpusTool {
  /** Short server name (`github`, `notion`...). */
  readonly server: string;
  /** The npm package the server was started from. */
  readonly package: string;
  /** The package's version. */
  readonly version: string;
  /** The tool's name. */
  readonly name: string;
  /** The tool's `title`. */
  readonly title?: string;
  /** The tool's `description`. */
  readonly description?: string;
  /** The tool's `annotations` (`title`, `readOnlyHint`, ...), unchanged. */
  readonly annotations?: Record<string, unknown>;
  /** The tool's `inputSchema`, unchanged. */
  readonly inputSchema: Record<string, unknown>;
}

/** `corpus/real-tool-schemas.json`, written by `scripts/collect-schema-corpus.mjs`. */
export interface SchemaCorpus {
  readonly description: string;
  readonly servers: ReadonlyArray<{ readonly server: string; readonly package: string; readonly version: string; readonly tools: number }>;
  readonly skipped: ReadonlyArray<{ readonly package: string; readonly reason: string }>;
  readonly tools: readonly CorpusTool[];
}

/** Where the corpus file is (the same relative path from `src/` and from `dist/`). */
export const SCHEMA_CORPUS_URL = new URL('../corpus/real-tool-schemas.json', import.meta.url);

let cached: SchemaCorpus | undefined;

/** The checked-in corpus of real tool schemas (read once). */
export function loadSchemaCorpus(): SchemaCorpus {
  cached ??= JSON.parse(readFileSync(SCHEMA_CORPUS_URL, 'utf8')) as SchemaCorpus;
  return cached;
}

/** How often a schema uses `$ref`, `$defs` and `definitions` as keywords (property names do not count). */
export function schemaKeywordUse(schema: unknown): { $ref: number; $defs: number; definitions: number } {
  const found = { $ref: 0, $defs: 0, definitions: 0 };
  const stack: Array<{ node: unknown; inPropertyMap: boolean }> = [{ node: schema, inPropertyMap: false }];
  while (stack.length > 0) {
    const { node, inPropertyMap } = stack.pop() as { node: unknown; inPropertyMap: boolean };
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, inPropertyMap: false });
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    for (const [key, value] of Object.entries(node)) {
      if (!inPropertyMap && (key === '$ref' || key === '$defs' || key === 'definitions')) found[key] += 1;
      const holdsNames =
        !inPropertyMap && (key === 'properties' || key === 'patternProperties' || key === '$defs' || key === 'definitions');
      stack.push({ node: value, inPropertyMap: holdsNames });
    }
  }
  return found;
}

/** Counts of the corpus: tools, servers, and schemas that use `$ref`/`$defs`/`definitions`. */
export function describeCorpus(corpus: SchemaCorpus): {
  tools: number;
  servers: number;
  withRef: number;
  refs: number;
  withDefs: number;
  withDefinitions: number;
  withAny: number;
} {
  const counts = {
    tools: corpus.tools.length,
    servers: corpus.servers.length,
    withRef: 0,
    refs: 0,
    withDefs: 0,
    withDefinitions: 0,
    withAny: 0,
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
