/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Escape one JSON-pointer segment (`~` → `~0`, `/` → `~1`). */
export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Split a local `$ref` (`#`, `#/$defs/Node`, percent-encoded or not) into decoded segments.
 * Returns `undefined` for refs that are not local JSON pointers (remote URLs, `$anchor` names).
 */
export function parseLocalRef(ref: string): string[] | undefined {
  if (ref === '#' || ref === '#/') return [];
  if (!ref.startsWith('#/')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(ref.slice(2));
  } catch {
    return undefined;
  }
  return decoded.split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Resolve decoded pointer segments against `root`; `undefined` when the path does not exist. */
export function resolvePointer(root: unknown, segments: readonly string[]): unknown {
  let node: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
      node = node[Number(segment)];
    } else if (isPlainObject(node) && Object.prototype.hasOwnProperty.call(node, segment)) {
      node = node[segment];
    } else {
      return undefined;
    }
  }
  return node;
}

/** Resolve a local `$ref` against `root`; `undefined` when it is not local or does not resolve. */
export function resolveLocalRef(root: unknown, ref: string): unknown {
  const segments = parseLocalRef(ref);
  return segments === undefined ? undefined : resolvePointer(root, segments);
}
