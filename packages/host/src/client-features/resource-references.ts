import type { ConnectionClient } from '@toolhost/connection';
import type { ContentPart } from '@toolhost/contract';
import { HostError } from '../host-error.js';
import { readResourceParts } from './read-resource-parts.js';

/** One `@server:uri` reference found in user input. */
export type ResourceReference = ResolvedResourceReferences['resolved'][number];

// `@name:scheme:rest` at the start or after whitespace; the URI must have a scheme.
const REFERENCE = /(^|\s)@([A-Za-z0-9_.-]+):([A-Za-z][A-Za-z0-9+.-]*:[^\s]+)/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/;

/**
 * Finds `@server:uri` references in user input (Gemini CLI's syntax). Trailing sentence
 * punctuation is not part of the URI; `\@` and e-mail addresses are not references.
 *
 * @example parseResourceReferences('summarise @docs:file:///a.md.') // [{ serverName: 'docs', uri: 'file:///a.md', ... }]
 */
export function parseResourceReferences(input: string): ResourceReference[] {
  const references: ResourceReference[] = [];
  for (const match of input.matchAll(REFERENCE)) {
    const [, lead = '', serverName = '', rawUri = ''] = match;
    const uri = rawUri.replace(TRAILING_PUNCTUATION, '');
    const index = (match.index ?? 0) + lead.length;
    references.push({ raw: `@${serverName}:${uri}`, serverName, uri, index });
  }
  return references;
}

/** Options of {@link resolveResourceReferences}. */
export interface ResolveResourceReferencesOptions {
  /** The user's input. */
  readonly input: string;
  /** The connected client of a server, or undefined when the name is unknown. */
  readonly getClient: (serverName: string) => Pick<ConnectionClient, 'readResource'> | undefined;
  /** Aborts the reads. */
  readonly signal?: AbortSignal;
}

/** The parts for the model plus what happened to each reference. */
export interface ResolvedResourceReferences {
  /** The input text first, then a header and the content of each resolved reference. */
  readonly parts: ContentPart[];
  /** References that were read. */
  readonly resolved: Array<{
    /** The reference as written (`@docs:file:///readme.md`). */
    readonly raw: string;
    /** The server name. */
    readonly serverName: string;
    /** The resource URI. */
    readonly uri: string;
    /** Offset of `raw` in the input. */
    readonly index: number;
  }>;
  /** References that could not be read, with the reason (a `HostError`). */
  readonly failed: Array<{ reference: ResourceReference; error: HostError }>;
}

/**
 * Resolves the `@server:uri` references in user input into parts for the model: the input text,
 * then for each reference a `Content from @server:uri:` text part followed by its text, or an
 * `inlineData` part for binary contents. Each distinct reference is read once; failures are
 * reported in `failed` and in a text part, never thrown.
 */
export async function resolveResourceReferences(options: ResolveResourceReferencesOptions): Promise<ResolvedResourceReferences> {
  const parts: ContentPart[] = [{ type: 'text', text: options.input }];
  const resolved: ResourceReference[] = [];
  const failed: ResolvedResourceReferences['failed'] = [];
  const seen = new Set<string>();
  for (const reference of parseResourceReferences(options.input)) {
    if (seen.has(reference.raw)) continue;
    seen.add(reference.raw);
    const client = options.getClient(reference.serverName);
    try {
      if (!client) {
        throw new HostError({
          code: 'SERVER_NOT_FOUND',
          serverName: reference.serverName,
          uri: reference.uri,
          message: `'${reference.raw}' names MCP server '${reference.serverName}', which is not connected. Check the server name with /mcp.`,
        });
      }
      const contents = await readResourceParts(client, {
        serverName: reference.serverName,
        uri: reference.uri,
        ...(options.signal ? { signal: options.signal } : {}),
      });
      parts.push({ type: 'text', text: `Content from ${reference.raw}:` });
      for (const content of contents) parts.push(content.part);
      resolved.push(reference);
    } catch (error) {
      const featureError = HostError.isInstance(error)
        ? error
        : new HostError({
            code: 'REQUEST_FAILED',
            serverName: reference.serverName,
            uri: reference.uri,
            message: `Reading '${reference.raw}' failed: ${error instanceof Error ? error.message : String(error)}`,
            cause: error,
          });
      parts.push({ type: 'text', text: `Could not read ${reference.raw}: ${featureError.message}` });
      failed.push({ reference, error: featureError });
    }
  }
  return { parts, resolved, failed };
}
