import type { ToolSearchEntry } from './tool-search-entry.js';
import { splitWords } from './split-words.js';
import { TOOL_SEARCH_LIMITS } from './tool-search-limits.js';

/** The searchable text of one tool, by field (one per `ToolField`), each part already cut to its bound. */
export interface ToolText {
  /** The tool's name on its server, and the model-facing name when that says more. */
  readonly name: string;
  /** Its title. */
  readonly title: string;
  /** Its description. */
  readonly description: string;
  /** Its parameters: names, descriptions, titles and enum values. */
  readonly parameters: string;
  /** The server's name and description. */
  readonly server: string;
}

const MAX_ENUM_VALUES = 20;
const MAX_ENUM_VALUE_CHARS = 60;

/**
 * The bounded searchable text of `entry` (text that is not a string counts as none). `prefix` is
 * the first word the tool names of its server share ({@link sharedNamePrefixes}): it moves from
 * the name to the server's words.
 */
export function toolText(entry: ToolSearchEntry, prefix?: string): ToolText {
  const { maxNameChars, maxDescriptionChars } = TOOL_SEARCH_LIMITS;
  const qualified = `${entry.serverName}__${entry.toolName}`;
  // A host's name is usually the tool's own or `server__tool`; any other adds words of its own.
  const extraName = entry.name !== entry.toolName && entry.name !== qualified ? ` ${cut(entry.name, maxNameChars)}` : '';
  let name = splitWords(entry.toolName, maxNameChars);
  if (prefix !== undefined && name[0] === prefix) name = name.slice(1);
  const server = [cut(entry.serverName, maxNameChars), prefix ?? '', cut(stringOrEmpty(entry.serverDescription), maxNameChars)];
  return {
    name: name.join(' ') + extraName,
    title: cut(stringOrEmpty(entry.title) || annotationTitle(entry.annotations), maxNameChars),
    description: cut(stringOrEmpty(entry.description), maxDescriptionChars),
    parameters: parameterText(entry.inputSchema),
    server: server.filter((part) => part !== '').join(' '),
  };
}

/**
 * Parameter names, titles, descriptions and enum values of a JSON schema, breadth first
 * (top-level parameters before nested ones), visiting at most `maxSchemaNodes` nodes and keeping
 * at most `maxParameterChars` characters. Iterative: a deep or cyclic object cannot overflow.
 */
function parameterText(schema: unknown): string {
  const { maxSchemaNodes, maxParameterChars, maxParameterDescriptionChars } = TOOL_SEARCH_LIMITS;
  const parts: string[] = [];
  let length = 0;
  const add = (text: string): boolean => {
    if (length >= maxParameterChars) return false;
    const part = cut(text, maxParameterChars - length);
    parts.push(part);
    length += part.length + 1;
    return true;
  };
  const queue: unknown[] = [schema];
  const seen = new Set<object>();
  for (let visited = 0; visited < queue.length && visited < maxSchemaNodes && length < maxParameterChars; visited += 1) {
    const node = queue[visited];
    if (!isRecord(node) || seen.has(node)) continue;
    seen.add(node);
    const properties = node['properties'];
    if (isRecord(properties)) {
      for (const [name, property] of Object.entries(properties)) {
        if (!add(name)) break;
        if (!isRecord(property)) continue;
        for (const key of ['title', 'description'] as const) {
          const text = property[key];
          if (typeof text === 'string') add(cut(text, maxParameterDescriptionChars));
        }
        const values = property['enum'];
        if (Array.isArray(values)) {
          for (const value of values.slice(0, MAX_ENUM_VALUES)) if (typeof value === 'string') add(cut(value, MAX_ENUM_VALUE_CHARS));
        }
        queue.push(property);
      }
    }
    for (const key of ['items', 'additionalProperties'] as const) if (isRecord(node[key])) queue.push(node[key]);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const branches = node[key];
      if (Array.isArray(branches)) queue.push(...branches.slice(0, maxSchemaNodes));
    }
  }
  return parts.join(' ');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `annotations.title` when it is a string. */
function annotationTitle(annotations: unknown): string {
  return isRecord(annotations) ? stringOrEmpty(annotations['title']) : '';
}

function stringOrEmpty(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The first `max` characters of `text`, without splitting a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, Math.max(0, end));
}
