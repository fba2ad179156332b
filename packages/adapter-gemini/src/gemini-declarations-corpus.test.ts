// Every tool of a real-world corpus (208 tools/list schemas of 13 published MCP servers, collected
// by packages/bench/scripts/collect-schema-corpus.mjs) declared by the Gemini adapter, checked
// against the `Schema` type of `@google/genai`, in the declaration and on the wire (msw).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { GoogleGenAI, Type, type FunctionDeclaration, type Schema } from '@google/genai';
import type { SchemaCorpus } from '@toolhost-internal/bench';
import type { HostToolDefinition } from '@toolhost/contract';
import { GEMINI_SCHEMA_FIELDS, sanitizeSchema } from '@toolhost/schema-sanitizer';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSchemaProblems, SCHEMA_FIELDS, type SchemaProblemKind } from './__fixtures__/gemini-schema-problems.js';
import { createGeminiAdapter } from './create-gemini-adapter.js';
import { GEMINI_TOOL_NAME_POLICY } from './gemini-tool-name-policy.js';

const corpusPath = createRequire(import.meta.url).resolve('@toolhost-internal/bench/corpus/real-tool-schemas.json');
const corpus = JSON.parse(readFileSync(corpusPath, 'utf8')) as SchemaCorpus;

const tools: HostToolDefinition[] = corpus.tools.map((tool, index) => ({
  // Unique and valid under the adapter's policy, as the host would name them.
  name: GEMINI_TOOL_NAME_POLICY.normalize(`t${index}_${tool.name}`).slice(0, GEMINI_TOOL_NAME_POLICY.maxLength),
  serverName: tool.server,
  originalName: tool.name,
  description: `${tool.server} ${tool.name}`,
  inputSchema: tool.inputSchema,
}));

const bodies: Record<string, unknown>[] = [];
const api = setupServer(
  http.post(/generativelanguage\.googleapis\.com\/v1beta\/models\/gemini-test:generateContent$/, async ({ request }) => {
    bodies.push((await request.json()) as Record<string, unknown>);
    return HttpResponse.json({ candidates: [{ content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP' }] });
  }),
);

beforeAll(() => api.listen({ onUnhandledRequest: 'error' }));
afterAll(() => api.close());

/** Send declarations through the real `@google/genai` client and return what reached the API. */
async function sendOnWire(functionDeclarations: FunctionDeclaration[]): Promise<{ name: string; parameters?: unknown }[]> {
  const ai = new GoogleGenAI({ apiKey: 'test-key' });
  const before = bodies.length;
  await ai.models.generateContent({
    model: 'gemini-test',
    contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    config: { tools: [{ functionDeclarations }] },
  });
  expect(bodies).toHaveLength(before + 1);
  const sent = bodies[before]?.['tools'] as { functionDeclarations: { name: string; parameters?: unknown }[] }[];
  return sent[0]!.functionDeclarations;
}

/** How many tools have at least one problem of each kind. */
function toolsWithProblems(declarations: readonly { parameters?: unknown }[]): Partial<Record<SchemaProblemKind, number>> {
  const counts: Partial<Record<SchemaProblemKind, number>> = {};
  for (const declaration of declarations) {
    if (declaration.parameters === undefined) continue;
    for (const kind of new Set(findSchemaProblems(declaration.parameters).map((problem) => problem.kind)))
      counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
}

describe('Gemini declarations of a real-world tool corpus', () => {
  it('holds the corpus: about 200 tools of at least 10 servers', () => {
    expect(tools.length).toBeGreaterThanOrEqual(200);
    expect(new Set(tools.map((tool) => tool.serverName)).size).toBeGreaterThanOrEqual(10);
  });

  it("the sanitizer's GEMINI_SCHEMA_FIELDS are exactly the fields of @google/genai's Schema", () => {
    expect(new Set(Object.keys(SCHEMA_FIELDS))).toEqual(GEMINI_SCHEMA_FIELDS);
  });

  it.each(tools.map((tool) => [`${tool.serverName}.${tool.originalName}`, tool] as const))(
    '%s: the default declaration has only what Schema accepts',
    (_name, tool) => {
      const [declaration] = createGeminiAdapter().toTools([tool]) satisfies FunctionDeclaration[];
      expect(declaration?.name).toBe(tool.name);
      expect(declaration?.parametersJsonSchema).toBeUndefined();
      const parameters: Schema | undefined = declaration?.parameters;
      if (parameters === undefined) {
        // Only a tool without arguments is declared without `parameters`.
        expect(sanitizeSchema(tool.inputSchema, { profile: 'gemini', geminiSchemaFieldsOnly: true })['properties']).toEqual({});
        return;
      }
      expect(findSchemaProblems(parameters)).toEqual([]);
      // The parameters of a function are the properties of one OBJECT.
      expect(parameters.type).toBe(Type.OBJECT);
    },
  );

  it('every declaration reaches the API through @google/genai without a problem', async () => {
    const wire = await sendOnWire(createGeminiAdapter().toTools(tools));
    expect(wire.map((declaration) => declaration.name)).toEqual(tools.map((tool) => tool.name));
    expect(toolsWithProblems(wire)).toEqual({});
    const problems = wire.flatMap((declaration) =>
      findSchemaProblems(declaration.parameters ?? {}).map((p) => `${declaration.name}${p.path}: ${p.message}`),
    );
    expect(problems).toEqual([]);
  });

  it('the old default (profile gemini alone) sent formats and fields the API rejects, for the same corpus', async () => {
    // What the adapter declared before: the seeds' rules only, cast to Schema.
    const old = tools.map((tool) => ({ name: tool.name, parameters: sanitizeSchema(tool.inputSchema, { profile: 'gemini' }) as Schema }));
    const counts = toolsWithProblems(await sendOnWire(old));
    // Measured on the 208-tool corpus: 11 tools with a rejected format, 24 with a rejected field.
    expect(counts.format).toBeGreaterThan(0);
    expect(counts.field).toBeGreaterThan(0);
  });
});
