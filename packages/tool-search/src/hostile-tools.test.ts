// Tool definitions come from servers and queries from a model: both are hostile. These tests list
// the tools of real fixture servers over loopback HTTP, as a host would, index them through the
// public API and search them with hostile queries.
import { connectClient, ConnectionClient, type OpenedConnection, type Tool } from '@toolhost/connection';
import { SEARCH_HOSTILE_MARKER, startHttpFixture, type FixtureBehaviour, type HttpFixture } from '@toolhost-internal/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolIndex, ToolSearch, ToolSearchError, TOOL_SEARCH_LIMITS, type ToolIndex, type ToolSearchEntry } from './index.js';

const open: Array<{ fixture: HttpFixture; connection?: OpenedConnection }> = [];

/** The tools a fixture server lists, as search entries of the server `serverName`. */
async function listEntries(behaviour: FixtureBehaviour, serverName: string): Promise<ToolSearchEntry[]> {
  const fixture = await startHttpFixture({ behaviour });
  const opened: { fixture: HttpFixture; connection?: OpenedConnection } = { fixture };
  open.push(opened);
  // A host refuses answers nested past 512 levels; the hostile schema nests 600 so that the index's
  // own bound is what is tested, so this client lets it through.
  const client = new ConnectionClient({ name: 'tool-search-test', version: '1.0.0' }, { capabilities: {} }, { maxMessageDepth: 1_000 });
  const config = { type: 'http', url: fixture.url } as const;
  opened.connection = await connectClient({ serverName, config, client, timeout: 30_000, signal: AbortSignal.timeout(60_000) });
  const { tools } = await client.listTools();
  return tools.map((tool: Tool) => ({
    name: tool.name,
    serverName,
    toolName: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: tool.annotations,
  }));
}

let entries: ToolSearchEntry[];
let index: ToolIndex;
const prototypeKeysBefore = Object.getOwnPropertyNames(Object.prototype).sort();

beforeAll(async () => {
  entries = [...(await listEntries('search-hostile', 'storage')), ...(await listEntries('deceptive', 'deceptive'))];
  index = createToolIndex(entries);
}, 60_000);

afterAll(async () => {
  for (const { fixture, connection } of open.splice(0)) {
    await connection?.close();
    await fixture.close();
  }
});

const names = (results: ReadonlyArray<{ name: string }>): string[] => results.map((result) => result.name);

describe('tools a hostile server lists', () => {
  it('are all indexed, whatever their names', () => {
    expect(index.size).toBe(entries.length);
    expect(entries.map((entry) => entry.name)).toEqual(expect.arrayContaining(['__proto__', 'constructor', 'hasOwnProperty', 'toString']));
  });

  it('named like members of Object.prototype are found by name and by what they do, and pollute nothing', () => {
    for (const name of ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__']) {
      expect(index.search({ query: name, limit: 1 })).toEqual([{ name, serverName: 'storage', toolName: name, score: 1 }]);
    }
    expect(names(index.search({ query: 'rotate the signing keys', limit: 10 }))).toEqual(
      expect.arrayContaining(['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__']),
    );
    expect(names(index.search({ query: 'select:__proto__,constructor,prototype', limit: 5 }))).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeysBefore);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as Record<string, unknown>)['type']).toBeUndefined();
  });

  it('have only the first part of a huge description, word or schema indexed', () => {
    // Each of these tools says the marker only past the bounds (after 2 MB of padding, after a
    // word of a million letters, in the 31st KB of parameter text): it must not be found.
    expect(index.search({ query: SEARCH_HOSTILE_MARKER, limit: 50 })).toEqual([]);
    // What comes first is indexed.
    expect(names(index.search({ query: 'archive old logs', limit: 3 }))[0]).toBe('huge-description');
    expect(names(index.search({ query: 'export the report', limit: 3 }))[0]).toBe('hostile-schema');
  });

  it('with odd Unicode in names and text are indexed and found', () => {
    const odd = entries.find((entry) => entry.name.startsWith('odd-unicode-'));
    expect(odd).toBeDefined();
    expect(names(index.search({ query: 'rotate keys istanbul', limit: 3 }))).toContain(odd?.name);
    expect(names(index.search({ query: '名前', limit: 3 }))).toContain(odd?.name);
    expect(names(index.search({ query: odd?.name ?? '', limit: 1 }))).toEqual([odd?.name]);
  });

  it('still let ordinary tools be found first', () => {
    expect(names(index.search({ query: 'remove a bucket', limit: 1 }))).toEqual(['delete_bucket']);
    expect(names(index.search({ query: 'show my buckets', limit: 1 }))).toEqual(['list_buckets']);
    expect(names(index.search({ query: 'read a file', limit: 1 }))).toEqual(['read-file']);
  });

  it('are ranked the same way by a second index built from the same list', () => {
    const again = createToolIndex([...entries]);
    for (const query of ['rotate the signing keys', 'bucket', 'read a file', 'padding words']) {
      expect(again.search({ query, limit: 50 })).toEqual(index.search({ query, limit: 50 }));
    }
  });
});

describe('hostile queries', () => {
  it('of odd Unicode never throw and answer known tools', () => {
    const queries = [
      '\uD800',
      '\uDFFF\uD800 bucket',
      `e${'\u0301'.repeat(100_000)}`,
      '\u202Edelete\u202C bucket',
      '\u0000\u0000 list buckets',
      '🔑'.repeat(10_000),
      'İİİ ß ﬁ ǅ',
      '\u200B'.repeat(50_000),
      'a'.repeat(1_000_000),
      'A'.repeat(1_000_000),
      `${'_'.repeat(100_000)}x`,
      '__proto__ constructor prototype',
      'select:',
      'select:,,,',
    ];
    for (const query of queries) {
      const results = index.search({ query, limit: 50 });
      expect(Array.isArray(results)).toBe(true);
      for (const result of results) {
        expect(index.search({ query: `select:${result.name}` })[0]?.name).toBe(result.name);
        expect(Number.isFinite(result.score)).toBe(true);
      }
    }
  });

  it('are read up to maxQueryChars: a word past it is not searched', () => {
    const padding = 'zz '.repeat(Math.ceil(TOOL_SEARCH_LIMITS.maxQueryChars / 3));
    expect(names(index.search({ query: `bucket ${padding}`, limit: 5 }))).toContain('delete_bucket');
    expect(names(index.search({ query: `${padding} bucket`, limit: 5 }))).not.toContain('delete_bucket');
  });

  it('select at most maxSelectNames tools, and limits stay bounded', () => {
    const all = entries.map((entry) => entry.name);
    const many = `select:${Array.from({ length: 10_000 }, (_, i) => all[i % all.length]).join(',')}`;
    expect(index.search({ query: many }).length).toBeLessThanOrEqual(TOOL_SEARCH_LIMITS.maxSelectNames);
    expect(index.search({ query: 'bucket', limit: 1e9 }).length).toBeLessThanOrEqual(TOOL_SEARCH_LIMITS.maxLimit);
  });

  it('with a bad limit or no query fail with INVALID_OPTIONS saying how to ask', async () => {
    for (const limit of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
      expect(() => index.search({ query: 'bucket', limit })).toThrow(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
    }
    for (const query of ['', '   ', null as unknown as string, 42 as unknown as string]) {
      expect(() => index.search({ query })).toThrow(ToolSearchError);
    }
    const search = new ToolSearch(entries);
    await expect(search.search({ query: '  ' })).rejects.toThrow(/say in a few words what the tool should do/);
  });
});
