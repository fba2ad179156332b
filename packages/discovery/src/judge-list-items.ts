import { specTypeSchemas } from '@modelcontextprotocol/client';
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { escapeControlText, jsonBoundsBreach } from '@toolhost/contract';

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

/** Longest item name reported for an item left out (a longer one is cut, with `…`). */
const MAX_REPORTED_NAME_LENGTH = 200;

/**
 * Default of `DefinitionLimits.maxDepth`: levels of JSON nesting of one tool, prompt,
 * resource or template definition. A real schema nests a few dozen levels (60 levels of
 * `properties` are about 125); the SDK's schema check recurses per level and runs out of stack
 * at about 2,000, and so does every recursive walk of a schema after it.
 */
export const DEFAULT_MAX_DEFINITION_DEPTH = 256;

/**
 * Default of `DefinitionLimits.maxLength`: characters of JSON of one definition (1 MiB). A
 * tool definition that large would fill a model's context on its own.
 */
export const DEFAULT_MAX_DEFINITION_LENGTH = 1_048_576;

/**
 * Bounds of one list item (a tool, prompt, resource or resource template definition) as a
 * server sent it: an item over either is left out, with the reason, before anything parses it.
 */
export interface DefinitionLimits {
  /** Most levels of JSON nesting (the definition object is level 1). @default 256 ({@link DEFAULT_MAX_DEFINITION_DEPTH}) */
  readonly maxDepth: number;
  /** Most characters of its JSON text. @default 1048576 ({@link DEFAULT_MAX_DEFINITION_LENGTH}) */
  readonly maxLength: number;
}

/** {@link DEFAULT_MAX_DEFINITION_DEPTH} and {@link DEFAULT_MAX_DEFINITION_LENGTH}. */
export const DEFAULT_DEFINITION_LIMITS: DefinitionLimits = {
  maxDepth: DEFAULT_MAX_DEFINITION_DEPTH,
  maxLength: DEFAULT_MAX_DEFINITION_LENGTH,
};

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

/** Why `raw` breaks `limits`, or `undefined` when it is within them. */
function overLimits(raw: unknown, label: string, limits: DefinitionLimits): string | undefined {
  const breach = jsonBoundsBreach(raw, limits);
  if (breach === 'depth') return `${label} definition nested more than ${limits.maxDepth} levels deep (over the maxDefinitionDepth limit)`;
  if (breach === 'length')
    return `${label} definition larger than ${limits.maxLength} characters of JSON (over the maxDefinitionLength limit)`;
  return undefined;
}

/**
 * The SDK's check of an item against its spec schema, always synchronous. The schema library
 * answers with a Promise (an asynchronous re-check) when its synchronous check throws, which is
 * what running out of stack on a deep value does; that Promise is silenced (it would reject the
 * same way, unhandled) and the item counted as one that could not be checked.
 */
function sdkCheck<T>(schema: StandardSchemaV1<unknown, T>, value: unknown): StandardSchemaV1.Result<T> | undefined {
  let outcome: StandardSchemaV1.Result<T> | Promise<StandardSchemaV1.Result<T>>;
  try {
    outcome = schema['~standard'].validate(value);
  } catch {
    return undefined;
  }
  if (outcome instanceof Promise) {
    outcome.catch(() => undefined);
    return undefined;
  }
  return outcome;
}

/**
 * Judge one list item on its own against the SDK's schema of its spec type (a tool's input
 * schema without `type` counts as an object schema). An item nested deeper or larger than
 * `limits` is left out before the SDK's schema sees it. `index` (0-based) names an item without a
 * name: `(tool #3, no name)`. Never throws.
 */
export function judgeItem<T>(
  raw: unknown,
  index: number,
  shape: Pick<ListItemsShape, 'typeName' | 'label'>,
  limits: DefinitionLimits = DEFAULT_DEFINITION_LIMITS,
): ItemJudgement<T> {
  const rawName = isRecord(raw) && typeof raw['name'] === 'string' ? raw['name'] : undefined;
  const leftOut = (reason: string): ItemJudgement<T> => ({
    ok: false,
    invalid: {
      name:
        rawName === undefined
          ? `(${shape.label} #${index + 1}, no name)`
          : rawName.length > MAX_REPORTED_NAME_LENGTH
            ? `${rawName.slice(0, MAX_REPORTED_NAME_LENGTH)}…`
            : rawName,
      named: rawName !== undefined,
      reason,
    },
  });
  const over = overLimits(raw, shape.label, limits);
  if (over !== undefined) return leftOut(over);
  const normalized = shape.typeName === 'Tool' ? withDefaultObjectType(raw) : raw;
  const outcome = sdkCheck(specTypeSchemas[shape.typeName] as StandardSchemaV1<unknown, T>, normalized);
  if (outcome === undefined) {
    return leftOut(`${shape.label} definition could not be checked (the check ran out of stack); lower maxDefinitionDepth`);
  }
  const issues = outcome.issues ?? (shape.typeName === 'Tool' ? wireToolIssues(normalized) : []);
  if (outcome.issues === undefined && issues.length === 0) return { ok: true, normalized, value: outcome.value };
  return leftOut(`invalid ${shape.label} definition: ${describeIssues(issues)}`);
}

/**
 * Check each item of a list on its own (see {@link judgeItem}, within `limits`): the valid ones are kept (as
 * parsed), the invalid ones are returned with a name and a reason. A list that is not an array
 * fails the whole listing, with a short message.
 */
export function judgeItems<T>(
  items: unknown,
  shape: ListItemsShape,
  limits: DefinitionLimits = DEFAULT_DEFINITION_LIMITS,
): { items: T[]; invalid: InvalidItem[] } {
  if (!Array.isArray(items)) throw new Error(`the result has no ${JSON.stringify(shape.key)} list`);
  const valid: T[] = [];
  const invalid: InvalidItem[] = [];
  items.forEach((raw: unknown, index) => {
    const judgement = judgeItem<T>(raw, index, shape, limits);
    if (judgement.ok) valid.push(judgement.value);
    else invalid.push(judgement.invalid);
  });
  return { items: valid, invalid };
}
