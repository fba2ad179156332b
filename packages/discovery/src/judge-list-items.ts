import { specTypeSchemas } from '@modelcontextprotocol/client';
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { escapeControlText } from '@toolhost/contract';

/** The paginated list methods whose items are judged one by one. */
export type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';

/** The SDK spec type of the items of a list. */
export type SpecItemName = 'Tool' | 'Prompt' | 'Resource' | 'ResourceTemplate';

/** Where a list method keeps its items, their spec type, and what to call one in a reason. */
export interface ListItemsShape {
  /** The key of the items in the result (`tools`). */
  readonly key: string;
  /** The SDK spec type of one item. */
  readonly typeName: SpecItemName;
  /** What one item is called in reasons (`tool`). */
  readonly label: string;
}

/** {@link ListItemsShape} of each list method. */
export const LIST_ITEMS: Readonly<Record<ListMethod, ListItemsShape>> = {
  'tools/list': { key: 'tools', typeName: 'Tool', label: 'tool' },
  'prompts/list': { key: 'prompts', typeName: 'Prompt', label: 'prompt' },
  'resources/list': { key: 'resources', typeName: 'Resource', label: 'resource' },
  'resources/templates/list': { key: 'resourceTemplates', typeName: 'ResourceTemplate', label: 'resource template' },
};

/** True for one of the {@link ListMethod}s. */
export function isListMethod(method: string): method is ListMethod {
  return Object.hasOwn(LIST_ITEMS, method);
}

/** A list item that failed its own schema: left out, with why. */
export interface InvalidItem {
  /** The item's name (`(tool #3, no name)` when it has none). */
  readonly name: string;
  /** What is wrong, short and free of control characters. */
  readonly reason: string;
  /** False when the name is made up, so no tool filter applies to it. */
  readonly named: boolean;
}

/** The outcome of judging one item: the item as it may be used, or why it may not. */
export type ItemJudgement<T> =
  | {
      readonly ok: true;
      /** The item as the server sent it, with the defaults {@link judgeItem} fills in (a tool's `type: "object"`). */
      readonly normalized: unknown;
      /** The item as parsed by the SDK's schema of its spec type. */
      readonly value: T;
    }
  | { readonly ok: false; readonly invalid: InvalidItem };

/** True for a plain object (not `null`, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const MAX_REASON_LENGTH = 200;

/** A short reason from Standard Schema issues (`inputSchema: expected object, received null`), never a raw dump. */
export function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  const parts = issues.slice(0, 3).map((issue) => {
    const path = (issue.path ?? [])
      .map((segment) => (typeof segment === 'object' && segment !== null ? segment.key : segment))
      .map((key) => (typeof key === 'number' ? `[${key}]` : String(key)))
      .join('.')
      .replace(/\.\[/g, '[');
    const message = issue.message.replace(/^Invalid (?:input|option): /, '');
    return path ? `${path}: ${message}` : message;
  });
  if (issues.length > 3) parts.push(`and ${issues.length - 3} more`);
  const reason = escapeControlText(parts.join('; '));
  return reason.length > MAX_REASON_LENGTH ? `${reason.slice(0, MAX_REASON_LENGTH)}…` : reason;
}

/**
 * A tool's input schema without `type` is an object schema by JSON Schema's defaults (tool
 * arguments are always an object), e.g. `{ "properties": { "x": true } }`: it is given
 * `type: "object"` so that it loads. Any other `type` (`"string"`), or a schema that is not an
 * object (`null`), stays invalid.
 */
function withDefaultObjectType(tool: unknown): unknown {
  if (!isRecord(tool) || !isRecord(tool['inputSchema']) || 'type' in tool['inputSchema']) return tool;
  return { ...tool, inputSchema: { type: 'object', ...tool['inputSchema'] } };
}

/**
 * What the MCP 2026-07-28 wire schema of a tool checks beyond the SDK's `Tool` spec schema: a
 * `$schema` keyword of the input schema must be a string. (The SDK parses a 2026-07-28
 * `tools/list` result against its own frozen copy of the tool schema, so a tool kept here must
 * pass that one too.)
 */
function wireToolIssues(tool: unknown): StandardSchemaV1.Issue[] {
  if (!isRecord(tool) || !isRecord(tool['inputSchema'])) return [];
  const dialect = tool['inputSchema']['$schema'];
  if (dialect === undefined || typeof dialect === 'string') return [];
  return [{ message: `expected string, received ${dialect === null ? 'null' : typeof dialect}`, path: ['inputSchema', '$schema'] }];
}

/**
 * Judge one list item on its own against the SDK's schema of its spec type (a tool's input
 * schema without `type` counts as an object schema). `index` (0-based) names an item without a
 * name: `(tool #3, no name)`.
 */
export function judgeItem<T>(raw: unknown, index: number, shape: Pick<ListItemsShape, 'typeName' | 'label'>): ItemJudgement<T> {
  const normalized = shape.typeName === 'Tool' ? withDefaultObjectType(raw) : raw;
  const schema = specTypeSchemas[shape.typeName] as StandardSchemaV1<unknown, T>;
  const outcome = schema['~standard'].validate(normalized);
  if (outcome instanceof Promise) throw new Error(`the SDK's ${shape.typeName} schema is asynchronous`);
  const issues = outcome.issues ?? (shape.typeName === 'Tool' ? wireToolIssues(normalized) : []);
  if (outcome.issues === undefined && issues.length === 0) return { ok: true, normalized, value: outcome.value };
  const name = isRecord(raw) && typeof raw['name'] === 'string' ? raw['name'] : undefined;
  return {
    ok: false,
    invalid: {
      name: name ?? `(${shape.label} #${index + 1}, no name)`,
      named: name !== undefined,
      reason: `invalid ${shape.label} definition: ${describeIssues(issues)}`,
    },
  };
}

/**
 * Check each item of a list on its own (see {@link judgeItem}): the valid ones are kept (as
 * parsed), the invalid ones are returned with a name and a reason. A list that is not an array
 * fails the whole listing, with a short message.
 */
export function judgeItems<T>(items: unknown, shape: ListItemsShape): { items: T[]; invalid: InvalidItem[] } {
  if (!Array.isArray(items)) throw new Error(`the result has no ${JSON.stringify(shape.key)} list`);
  const valid: T[] = [];
  const invalid: InvalidItem[] = [];
  items.forEach((raw: unknown, index) => {
    const judgement = judgeItem<T>(raw, index, shape);
    if (judgement.ok) valid.push(judgement.value);
    else invalid.push(judgement.invalid);
  });
  return { items: valid, invalid };
}
