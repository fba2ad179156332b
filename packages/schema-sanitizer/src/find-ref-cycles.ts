import { escapePointerSegment, isPlainObject, parseLocalRef } from './json-pointer.js';

/**
 * List the local `$ref`s that take part in a cycle (a ref whose target contains, directly or
 * through other refs, a ref back to it), e.g. a tree node whose `children` refer to the node.
 * Iterative, never follows refs while walking, so it is safe on any input. Useful to tell a
 * user which tools a model API may reject for schema depth (and to suggest `excludeTools`).
 *
 * @returns the cyclic refs as written in the schema (`#/$defs/Node`), sorted; empty when none
 */
export function findRefCycles(schema: unknown): string[] {
  // Every local ref: where it sits and the canonical pointer it targets.
  const refs: { at: string; target: string; raw: string }[] = [];
  const stack: { node: unknown; path: string }[] = [{ node: schema, path: '' }];
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((item, index) => stack.push({ node: item, path: `${path}/${index}` }));
    } else if (isPlainObject(node)) {
      for (const key of Object.keys(node)) {
        const value = node[key];
        if (key === '$ref' && typeof value === 'string') {
          const segments = parseLocalRef(value);
          if (segments !== undefined)
            refs.push({
              at: path,
              target: segments
                .map(escapePointerSegment)
                .map((s) => `/${s}`)
                .join(''),
              raw: value,
            });
        } else if (typeof value === 'object' && value !== null) {
          stack.push({ node: value, path: `${path}/${escapePointerSegment(key)}` });
        }
      }
    }
  }
  const inside = (path: string, container: string) => path === container || path.startsWith(`${container}/`);
  const targets = [...new Set(refs.map((ref) => ref.target))];
  // Edge T1 → T2 when a ref to T2 sits inside T1; a target is cyclic when it can reach itself.
  const edges = new Map(targets.map((target) => [target, refs.filter((ref) => inside(ref.at, target)).map((ref) => ref.target)]));
  const reachesItself = (start: string): boolean => {
    const seen = new Set<string>();
    const work = [...edges.get(start)!];
    while (work.length > 0) {
      const target = work.pop()!;
      if (target === start) return true;
      if (seen.has(target)) continue;
      seen.add(target);
      work.push(...edges.get(target)!);
    }
    return false;
  };
  const cyclic = new Set(targets.filter(reachesItself));
  return [...new Set(refs.filter((ref) => cyclic.has(ref.target)).map((ref) => ref.raw))].sort();
}

/** True when the schema contains a `$ref` cycle (see {@link findRefCycles}). */
export function hasRefCycle(schema: unknown): boolean {
  return findRefCycles(schema).length > 0;
}
