import { escapeControlText } from '@toolhost/contract';
import type { ToolSearchEntry, ToolSearchInput } from './tool-search-entry.js';
import { ToolSearchError } from './tool-search-error.js';

/**
 * Checks the tools an index is built over and returns them by name: an array of entries, each
 * with a non-empty string `name`, `serverName` and `toolName` (or, for a host's tool definition,
 * `originalName`), no two with the same `name`. Throws a {@link ToolSearchError}
 * (`INVALID_OPTIONS`) naming the first entry that is not. The entries returned are copies with
 * only the fields the index reads, so a caller changing its objects later changes nothing here.
 */
export function checkTools(tools: readonly ToolSearchInput[] | unknown): Map<string, ToolSearchEntry> {
  if (!Array.isArray(tools)) throw invalid(`the tools to search must be an array of entries, got ${describe(tools)}`);
  const byName = new Map<string, ToolSearchEntry>();
  (tools as unknown[]).forEach((tool: unknown, index) => {
    if (typeof tool !== 'object' || tool === null) throw invalid(`tool ${index} must be an object, got ${describe(tool)}`);
    const fields = tool as Record<string, unknown>;
    const toolName = typeof fields['toolName'] === 'string' ? fields['toolName'] : fields['originalName'];
    const names = { name: fields['name'], serverName: fields['serverName'], toolName };
    for (const [field, value] of Object.entries(names)) {
      if (typeof value !== 'string' || value === '') {
        const what = field === 'toolName' ? 'toolName (or originalName)' : field;
        throw invalid(`tool ${index} has no ${what} (a non-empty string is needed, got ${describe(value)})`);
      }
    }
    const name = names.name as string;
    if (byName.has(name)) {
      throw invalid(
        `two tools are named '${quote(name)}' (tools ${[...byName.keys()].indexOf(name)} and ${index}); give each a unique name`,
      );
    }
    byName.set(name, {
      name,
      serverName: names.serverName as string,
      toolName: toolName as string,
      title: stringOrUndefined(fields['title']),
      description: stringOrUndefined(fields['description']),
      inputSchema: fields['inputSchema'],
      annotations: fields['annotations'],
      serverDescription: stringOrUndefined(fields['serverDescription']),
    });
  });
  return byName;
}

/** A ToolSearchError with code INVALID_OPTIONS. */
export function invalid(message: string): ToolSearchError {
  return new ToolSearchError({ code: 'INVALID_OPTIONS', message: `Tool search: ${message}.` });
}

/** A name from a server or a model, safe to put in a message: control characters escaped, at most 100 characters. */
export function quote(text: string): string {
  return escapeControlText(text, { maxLength: 100 });
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string';
  return typeof value;
}
