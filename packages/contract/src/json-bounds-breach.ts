/** Bounds of a JSON value from a peer (see {@link jsonBoundsBreach}). */
export interface JsonBounds {
  /** Most levels of nesting (objects and arrays; the value itself is level 1 when it is one). */
  readonly maxDepth: number;
  /** Most characters of its JSON text (compact, as `JSON.stringify` writes it; string escapes not counted). */
  readonly maxLength: number;
}

/** `true`, `false`, `null` and numbers as JSON text. */
function scalarLength(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  return 4;
}

/**
 * Which bound a JSON value breaks, `depth` or `length` (the first one met), or `undefined` when it
 * is within both. Walks the value with a stack of its own, never recursion, so a value nested a
 * million levels deep (which `JSON.parse` builds happily) is measured without running out of
 * call stack; the walk stops at the first breach, so it costs at most about `maxLength` steps.
 * Meant for what a peer sends, before anything recursive (a schema library, `JSON.stringify`, a
 * schema transform) touches it.
 *
 * @example
 * ```ts
 * if (jsonBoundsBreach(tool, { maxDepth: 256, maxLength: 1_048_576 }) !== undefined) {
 *   // leave the tool out, with a reason
 * }
 * ```
 */
export function jsonBoundsBreach(value: unknown, bounds: JsonBounds): 'depth' | 'length' | undefined {
  let length = 0;
  const stack: Array<{ readonly value: unknown; readonly depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: node, depth } = stack.pop() as { value: unknown; depth: number };
    if (typeof node !== 'object' || node === null) {
      length += scalarLength(node);
    } else {
      if (depth > bounds.maxDepth) return 'depth';
      const array = Array.isArray(node);
      const keys = array ? undefined : Object.keys(node);
      const count = array ? (node as unknown[]).length : (keys as string[]).length;
      // Brackets and commas, counted before anything is pushed: a huge container stops here.
      length += 1 + Math.max(count, 1);
      if (length > bounds.maxLength) return 'length';
      if (array) {
        for (const item of node as unknown[]) stack.push({ value: item, depth: depth + 1 });
      } else {
        for (const key of keys as string[]) {
          // The quoted key and its colon.
          length += key.length + 3;
          if (length > bounds.maxLength) return 'length';
          stack.push({ value: (node as Record<string, unknown>)[key], depth: depth + 1 });
        }
      }
    }
    if (length > bounds.maxLength) return 'length';
  }
  return undefined;
}
