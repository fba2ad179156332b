import { DiscoveryError } from './discovery-error.js';

/** Default limit of pages read from one list request. */
export const DEFAULT_MAX_PAGES = 100;

/** One page of a paginated MCP list. */
export interface ListPage<T> {
  /** Items of this page. */
  items: readonly T[];
  /** Cursor of the next page; absent on the last page (an empty string is a valid cursor). */
  nextCursor?: string | undefined;
}

/** Options of {@link listAllPages}. */
export interface ListAllPagesOptions<T> {
  /** Server being listed, for error messages. */
  serverName: string;
  /** MCP method being listed (`tools/list`...), for error messages. */
  method: string;
  /** Stop with an error after this many pages. @default 100 */
  maxPages?: number | undefined;
  /** Fetch one page; `cursor` is undefined for the first page. */
  fetchPage: (cursor: string | undefined) => Promise<ListPage<T>>;
}

/**
 * Read every page of a paginated MCP list. A cursor the server already returned, or more
 * than `maxPages` pages, stops with a {@link DiscoveryError} instead of looping.
 */
export async function listAllPages<T>(options: ListAllPagesOptions<T>): Promise<T[]> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await options.fetchPage(cursor);
    items.push(...result.items);
    // End of list is keyed on presence: '' is a valid opaque cursor.
    if (result.nextCursor === undefined || result.nextCursor === null) return items;
    if (seen.has(result.nextCursor)) {
      throw new DiscoveryError({
        code: 'PAGINATION_CURSOR_REPEATED',
        message:
          `MCP server '${options.serverName}' returned the cursor ${JSON.stringify(result.nextCursor)} twice for ${options.method}; ` +
          'stopped reading instead of looping. The server has a pagination bug; report it to its maintainer.',
        serverName: options.serverName,
        method: options.method,
      });
    }
    if (page >= maxPages) {
      throw new DiscoveryError({
        code: 'PAGINATION_LIMIT_EXCEEDED',
        message:
          `MCP server '${options.serverName}' returned more than ${maxPages} pages for ${options.method}; ` +
          'stopped reading. Raise the maxPages option if the server really has that many.',
        serverName: options.serverName,
        method: options.method,
      });
    }
    seen.add(result.nextCursor);
    cursor = result.nextCursor;
  }
}
