import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { ClientFeatureError } from './client-feature-error.js';

/** Options of {@link listAllResources} and {@link listAllResourceTemplates}. */
export interface ListResourcesOptions {
  /** The server, for error messages. */
  readonly serverName: string;
  /** Stop after this many pages. @default 100 */
  readonly maxPages?: number;
  /** Aborts the listing. */
  readonly signal?: AbortSignal;
}

async function collectPages<T>(
  options: ListResourcesOptions & { method: string },
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
): Promise<T[]> {
  const maxPages = options.maxPages ?? 100;
  const seen = new Set<string>();
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 1; ; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    // Presence, not truthiness, ends the list: '' is a valid opaque cursor.
    if (result.nextCursor === undefined || result.nextCursor === null) return items;
    if (seen.has(result.nextCursor) || page >= maxPages) {
      throw new ClientFeatureError({
        code: 'RESOURCE_LIST_FAILED',
        serverName: options.serverName,
        method: options.method,
        message: `MCP server '${options.serverName}' kept paginating ${options.method} (repeated cursor or more than ${maxPages} pages); stopped reading instead of looping.`,
      });
    }
    seen.add(result.nextCursor);
    cursor = result.nextCursor;
  }
}

function requestOptions(options: ListResourcesOptions): RequestOptions {
  return options.signal ? { signal: options.signal } : {};
}

/** Every page of `resources/list`; an empty list when the server has no `resources` capability. */
export async function listAllResources(client: Client, options: ListResourcesOptions): Promise<Resource[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  return collectPages({ ...options, method: 'resources/list' }, async (cursor) => {
    const page = await client.listResources(cursor === undefined ? {} : { cursor }, requestOptions(options));
    return { items: page.resources, nextCursor: page.nextCursor };
  });
}

/** Every page of `resources/templates/list`; an empty list when the server has no `resources` capability. */
export async function listAllResourceTemplates(client: Client, options: ListResourcesOptions): Promise<ResourceTemplate[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  return collectPages({ ...options, method: 'resources/templates/list' }, async (cursor) => {
    const page = await client.listResourceTemplates(cursor === undefined ? {} : { cursor }, requestOptions(options));
    return { items: page.resourceTemplates, nextCursor: page.nextCursor };
  });
}
