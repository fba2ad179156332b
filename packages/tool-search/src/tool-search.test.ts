import { describe, expect, it } from 'vitest';
import {
  createToolIndex,
  ToolSearch,
  ToolSearchError,
  type RankedTool,
  type ToolRanker,
  type ToolSearchEntry,
  type ToolSearchRequest,
} from './index.js';

const TOOLS: ToolSearchEntry[] = [
  { name: 'read_file', serverName: 'fs', toolName: 'read_file', description: 'Read the complete contents of a file' },
  { name: 'write_file', serverName: 'fs', toolName: 'write_file', description: 'Create a new file or overwrite one' },
  { name: 'take_screenshot', serverName: 'browser', toolName: 'take_screenshot', description: 'Take a screenshot of the page' },
  { name: 'navigate', serverName: 'browser', toolName: 'navigate', description: 'Go to a URL' },
];

/** A ranker an application plugs in: here it answers whatever it was told to, and records what it was asked. */
function scriptedRanker(answer: unknown): {
  factory: (tools: readonly ToolSearchEntry[]) => ToolRanker;
  seen: { tools?: readonly ToolSearchEntry[]; requests: Array<Required<ToolSearchRequest>> };
} {
  const seen: { tools?: readonly ToolSearchEntry[]; requests: Array<Required<ToolSearchRequest>> } = { requests: [] };
  return {
    seen,
    factory: (tools) => {
      seen.tools = tools;
      return {
        rank: async (request) => {
          seen.requests.push(request);
          await new Promise((resolve) => setImmediate(resolve));
          return answer as RankedTool[];
        },
      };
    },
  };
}

describe('ToolSearch', () => {
  it('ranks with the built-in index by default', async () => {
    const search = new ToolSearch(TOOLS);
    expect(await search.search({ query: 'take a picture of the page', limit: 1 })).toEqual([
      { name: 'take_screenshot', serverName: 'browser', toolName: 'take_screenshot', score: 1 },
    ]);
    expect(search.tools.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
  });

  it('uses a plugged-in ranker: its scores, best first, ties in name order, divided by the best', async () => {
    const { factory, seen } = scriptedRanker([
      { name: 'write_file', score: 2 },
      { name: 'navigate', score: 4 },
      { name: 'read_file', score: 2 },
    ]);
    const search = new ToolSearch(TOOLS, { ranker: factory });
    expect(await search.search({ query: 'anything', limit: 3 })).toEqual([
      { name: 'navigate', serverName: 'browser', toolName: 'navigate', score: 1 },
      { name: 'read_file', serverName: 'fs', toolName: 'read_file', score: 0.5 },
      { name: 'write_file', serverName: 'fs', toolName: 'write_file', score: 0.5 },
    ]);
    expect(seen.tools?.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    expect(seen.requests).toEqual([{ query: 'anything', limit: 3 }]);
  });

  it('drops what a ranker invents or repeats: unknown names, scores that are not finite and above 0, a name seen before', async () => {
    const { factory } = scriptedRanker([
      { name: 'no_such_tool', score: 9 },
      { name: '__proto__', score: 9 },
      { name: 'read_file', score: Number.NaN },
      { name: 'read_file', score: Number.POSITIVE_INFINITY },
      { name: 'write_file', score: -1 },
      { name: 'navigate', score: 0 },
      null,
      'take_screenshot',
      { name: 'take_screenshot', score: 3 },
      { name: 'take_screenshot', score: 5 },
    ]);
    const search = new ToolSearch(TOOLS, { ranker: factory });
    expect(await search.search({ query: 'anything', limit: 5 })).toEqual([
      { name: 'take_screenshot', serverName: 'browser', toolName: 'take_screenshot', score: 1 },
    ]);
  });

  it('answers tools named in the query before the ranker, and asks the ranker for enough more', async () => {
    const { factory, seen } = scriptedRanker([
      { name: 'read_file', score: 1 },
      { name: 'navigate', score: 0.5 },
    ]);
    const search = new ToolSearch(TOOLS, { ranker: factory });
    expect((await search.search({ query: 'like read_file', limit: 2 })).map((tool) => tool.name)).toEqual(['read_file', 'navigate']);
    expect(seen.requests).toEqual([{ query: 'like read_file', limit: 3 }]);
    expect((await search.search({ query: 'select:navigate,fs__write_file' })).map((tool) => tool.name)).toEqual(['navigate', 'write_file']);
    expect(seen.requests).toHaveLength(1);
  });

  it('fails with INVALID_OPTIONS when a ranker answers something other than an array, and passes on what it throws', async () => {
    const notArray = new ToolSearch(TOOLS, { ranker: scriptedRanker({ name: 'read_file', score: 1 }).factory });
    await expect(notArray.search({ query: 'x' })).rejects.toThrow(ToolSearchError);
    await expect(notArray.search({ query: 'x' })).rejects.toThrow(/the ranker must return an array/);
    const failure = new Error('embedding service down');
    const throwing = new ToolSearch(TOOLS, { ranker: () => ({ rank: () => Promise.reject(failure) }) });
    await expect(throwing.search({ query: 'x' })).rejects.toBe(failure);
  });

  it('can run a hybrid: the built-in index plus the application’s own scores', async () => {
    const hybrid = (tools: readonly ToolSearchEntry[]): ToolRanker => {
      const index = createToolIndex(tools);
      return {
        rank: (request) =>
          index
            .rank({ ...request, limit: 50 })
            .map((tool) => ({ ...tool, score: tool.name === 'navigate' ? tool.score * 10 : tool.score })),
      };
    };
    const search = new ToolSearch(TOOLS, { ranker: hybrid });
    expect((await search.search({ query: 'open the page or a file', limit: 2 })).map((tool) => tool.name)[0]).toBe('navigate');
  });
});
