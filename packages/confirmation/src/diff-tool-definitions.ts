import type { ToolDefinitionChange } from '@toolhost/contract';
import { canonicalJson } from './canonical-json.js';
import type { ToolDefinition } from './tool-definition.js';

const ORDER = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', '_meta'];
const LIMIT = 2000;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const show = (value: unknown): string | undefined => {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : canonicalJson(value);
  return text.length > LIMIT ? `${text.slice(0, LIMIT)}… [${text.length - LIMIT} more characters]` : text;
};

function schemaDetails(before: unknown, after: unknown): string[] {
  const details: string[] = [];
  const oldProps = isRecord(before) && isRecord(before['properties']) ? before['properties'] : {};
  const newProps = isRecord(after) && isRecord(after['properties']) ? after['properties'] : {};
  const oldRequired = new Set(isRecord(before) && Array.isArray(before['required']) ? before['required'] : []);
  const newRequired = new Set(isRecord(after) && Array.isArray(after['required']) ? after['required'] : []);
  for (const name of Object.keys(newProps)) if (!(name in oldProps)) details.push(`added property '${name}'`);
  for (const name of Object.keys(oldProps)) if (!(name in newProps)) details.push(`removed property '${name}'`);
  for (const name of Object.keys(newProps)) {
    if (name in oldProps && canonicalJson(oldProps[name]) !== canonicalJson(newProps[name])) details.push(`changed property '${name}'`);
  }
  for (const name of newRequired) if (!oldRequired.has(name)) details.push(`'${String(name)}' is now required`);
  for (const name of oldRequired) if (!newRequired.has(name)) details.push(`'${String(name)}' is no longer required`);
  if (details.length === 0) details.push('the schema changed outside its top-level properties');
  return details;
}

function recordDetails(before: unknown, after: unknown): string[] {
  const oldRecord = isRecord(before) ? before : {};
  const newRecord = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(oldRecord), ...Object.keys(newRecord)])].sort();
  return keys
    .filter((key) => canonicalJson(oldRecord[key]) !== canonicalJson(newRecord[key]))
    .map((key) => `${key}: ${show(oldRecord[key]) ?? '(none)'} → ${show(newRecord[key]) ?? '(none)'}`);
}

/**
 * What changed between the definition a user approved and the one the server lists now,
 * field by field (known fields first, then the rest alphabetically). Empty when equal.
 */
export function diffToolDefinitions(previous: ToolDefinition, current: ToolDefinition): ToolDefinitionChange[] {
  const fields = [...new Set([...Object.keys(previous), ...Object.keys(current)])].sort((a, b) => {
    const rank = (field: string) => (ORDER.includes(field) ? ORDER.indexOf(field) : ORDER.length);
    return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
  });
  const changes: ToolDefinitionChange[] = [];
  for (const field of fields) {
    const before = previous[field];
    const after = current[field];
    if (canonicalJson(before) === canonicalJson(after)) continue;
    const kind = before === undefined ? 'added' : after === undefined ? 'removed' : 'changed';
    const details =
      field === 'inputSchema' || field === 'outputSchema'
        ? schemaDetails(before, after)
        : field === 'annotations' || field === '_meta'
          ? recordDetails(before, after)
          : [];
    changes.push({
      field,
      kind,
      ...(before === undefined ? {} : { before: show(before) }),
      ...(after === undefined ? {} : { after: show(after) }),
      details,
    });
  }
  return changes;
}

/**
 * Render changes for a dialog or a log, one block per field:
 * `description changed:\n  - old: "..."\n  + new: "..."` and `inputSchema changed: added property 'force'`.
 */
export function formatToolDefinitionChanges(changes: readonly ToolDefinitionChange[]): string {
  return changes
    .map((change) => {
      const head = `${change.field} ${change.kind}`;
      if (change.details.length > 0) return `${head}: ${change.details.join('; ')}`;
      const lines = [`${head}:`];
      if (change.before !== undefined) lines.push(`  - old: ${JSON.stringify(change.before)}`);
      if (change.after !== undefined) lines.push(`  + new: ${JSON.stringify(change.after)}`);
      return lines.join('\n');
    })
    .join('\n');
}
