import { escapePointerSegment, isPlainObject, resolveLocalRef } from './json-pointer.js';
import type { FinishInfo, NullableStrategy, ProfileRules } from './profile-rule-types.js';
import { isUnconstrained } from './schema-predicates.js';
import type { DroppedSchemaKeyword } from './schema-profile.js';
import { DATA, keywordKind, SCHEMA, SCHEMA_LIST, SCHEMA_OR_LIST } from './schema-keywords.js';
import { SchemaSanitizerError } from './schema-sanitizer-error.js';

type Container = Record<string, unknown> | unknown[];

/** How often one node may be inlined and prepared again because `prepare` brought in a `$ref`. */
const MAX_PREPARE_PASSES = 32;

/** The `$ref`s inlined on the way down to a node (a linked list: cheap to extend, shared by siblings). */
interface RefChain {
  readonly ref: string;
  readonly next: RefChain | undefined;
}

/** One node still to be written into `parent[key]`. */
interface Task {
  readonly src: Record<string, unknown> | unknown[];
  readonly parent: Container;
  readonly key: string | number;
  readonly path: string;
  /** `undefined` for plain data (copied), otherwise the node is a schema. */
  readonly refs: RefChain | undefined;
  readonly isSchema: boolean;
  readonly nullable: boolean;
}

/** Settings of one walk. */
export interface TransformOptions {
  /** The original input, against which local `$ref`s resolve. */
  readonly root: unknown;
  /** The profile; `undefined` copies the tree as plain data. */
  readonly rules: ProfileRules | undefined;
  readonly maxRefDepth: number;
  readonly maxInlinedRefs: number;
  readonly maxNodes: number;
  readonly onDrop: ((dropped: DroppedSchemaKeyword) => void) | undefined;
}

/** Assign without ever touching a prototype (JSON may carry an own `__proto__` key). */
function put(container: Container, key: string | number, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
  else (container as Record<string | number, unknown>)[key] = value;
}

function countOnChain(chain: RefChain | undefined, ref: string): number {
  let count = 0;
  for (let link = chain; link !== undefined; link = link.next) if (link.ref === ref) count++;
  return count;
}

/**
 * Walk `start` once, iteratively (no recursion: depth is bounded by memory, not the call
 * stack), writing a fresh output tree. The input is only read.
 */
export function transformSchema(start: Record<string, unknown>, options: TransformOptions): Record<string, unknown> {
  const { rules, onDrop } = options;
  const track = onDrop !== undefined;
  const holder: unknown[] = [undefined];
  const stack: Task[] = [{ src: start, parent: holder, key: 0, path: '', refs: undefined, isSchema: rules !== undefined, nullable: false }];
  let nodes = 0;
  let inlined = 0;

  const childPath = (path: string, key: string | number): string => (track ? `${path}/${escapePointerSegment(key)}` : '');
  const reporter = (path: string) => (keyword: string, reason: DroppedSchemaKeyword['reason']) => onDrop?.({ path, keyword, reason });

  /** Copy a data value: primitives and arrays of primitives at once, anything deeper as a task. */
  const copyValue = (container: Container, key: string | number, value: unknown, path: string): void => {
    if (typeof value !== 'object' || value === null) put(container, key, value);
    else if (Array.isArray(value) && value.every((item) => typeof item !== 'object' || item === null)) put(container, key, value.slice());
    else {
      put(container, key, undefined);
      stack.push({ src: value as Container, parent: container, key, path, refs: undefined, isSchema: false, nullable: false });
    }
  };

  /** Put one schema value in a slot; returns false when the slot was left out. */
  const placeSchema = (
    container: Container,
    key: string | number,
    value: unknown,
    path: string,
    refs: RefChain | undefined,
    nullable: boolean,
    report: FinishInfo['report'],
    keyword: string,
  ): boolean => {
    if (typeof value === 'boolean') {
      const replaced = rules!.booleanSchema(value);
      if (replaced === undefined) {
        report(keyword, 'false-schema');
        return false;
      }
      put(container, key, typeof replaced === 'object' ? { ...replaced } : replaced);
      return true;
    }
    if (!isPlainObject(value)) {
      report(keyword, 'invalid-schema');
      return false;
    }
    put(container, key, undefined);
    stack.push({ src: value, parent: container, key, path, refs, isSchema: true, nullable });
    return true;
  };

  while (stack.length > 0) {
    const task = stack.pop()!;
    if (++nodes > options.maxNodes) {
      throw new SchemaSanitizerError({
        code: 'SCHEMA_TOO_LARGE',
        message: `The schema has more than ${options.maxNodes} nodes (or is a cyclic object graph); it was not sanitised. Raise maxNodes if the schema is legitimate.`,
        jsonPath: task.path || undefined,
      });
    }
    if (!task.isSchema) {
      const src = task.src;
      if (Array.isArray(src)) {
        const out = new Array<unknown>(src.length);
        put(task.parent, task.key, out);
        for (let index = 0; index < src.length; index++) copyValue(out, index, src[index], childPath(task.path, index));
      } else {
        const out: Record<string, unknown> = {};
        put(task.parent, task.key, out);
        for (const key of Object.keys(src)) copyValue(out, key, src[key], childPath(task.path, key));
      }
      continue;
    }

    const profile = rules!;
    const report = reporter(task.path);
    let src = task.src as Record<string, unknown>;
    let refs = task.refs;
    // `prepare` may bring in a `$ref` (a nullable `anyOf: [{ $ref }, { type: 'null' }]` flattened,
    // an `allOf` member): inline it and prepare again, bounded like every other ref.
    for (let pass = 0; ; pass++) {
      if (profile.inlineRefs) {
        for (let ref = src['$ref']; typeof ref === 'string'; ref = src['$ref']) {
          const { $ref: _ignored, ...siblings } = src;
          const target = resolveLocalRef(options.root, ref);
          if (!isPlainObject(target) && typeof target !== 'boolean') {
            report('$ref', 'unresolved-ref');
            src = siblings;
            break;
          }
          if (countOnChain(refs, ref) >= options.maxRefDepth || inlined >= options.maxInlinedRefs) {
            report('$ref', 'ref-depth-limit');
            const description = siblings['description'] ?? (isPlainObject(target) ? target['description'] : undefined);
            src = typeof description === 'string' ? { description } : {};
            break;
          }
          inlined++;
          refs = { ref, next: refs };
          src = isPlainObject(target) ? { ...target, ...siblings } : siblings;
        }
      }
      if (!profile.prepare) break;
      src = profile.prepare(src, options.root, report);
      if (!profile.inlineRefs || typeof src['$ref'] !== 'string' || pass >= MAX_PREPARE_PASSES) break;
    }

    let parent: Container = task.parent;
    let key: string | number = task.key;
    let nullable: NullableStrategy | undefined;
    if (task.nullable) {
      const type = src['type'];
      const enumValues = src['enum'];
      const simpleEnum =
        enumValues === undefined || (Array.isArray(enumValues) && enumValues.every((v) => typeof v !== 'object' || v === null));
      const typed = typeof type === 'string' || Array.isArray(type) || (type === undefined && enumValues !== undefined);
      if ((typed && simpleEnum && src['const'] === undefined) || isUnconstrained(src)) nullable = 'type';
      else if (Array.isArray(src['anyOf']) && type === undefined) nullable = 'anyOf';
      else {
        nullable = 'wrap';
        const wrapper = { anyOf: [undefined, { type: 'null' }] as unknown[] };
        put(parent, key, wrapper);
        parent = wrapper.anyOf;
        key = 0;
      }
    }

    const out: Record<string, unknown> = {};
    put(parent, key, out);
    let propertyKeys: string[] | undefined;
    for (const keyword of Object.keys(src)) {
      const value = src[keyword];
      const verdict = profile.keyword(keyword, src, value);
      if (verdict !== true) {
        if (verdict !== null) report(keyword, verdict);
        continue;
      }
      const path = childPath(task.path, keyword);
      let kind = keywordKind(keyword);
      if (kind === SCHEMA_OR_LIST) kind = Array.isArray(value) ? SCHEMA_LIST : SCHEMA;
      if (kind === DATA) {
        copyValue(out, keyword, value, path);
      } else if (kind === SCHEMA) {
        placeSchema(out, keyword, value, path, refs, false, report, keyword);
      } else if (kind === SCHEMA_LIST) {
        if (!Array.isArray(value)) {
          report(keyword, 'invalid-schema');
          continue;
        }
        const list: unknown[] = [];
        put(out, keyword, list);
        for (let index = 0; index < value.length; index++) {
          placeSchema(list, list.length, value[index], childPath(path, index), refs, false, reporter(path), String(index));
        }
        if (keyword === 'anyOf' && nullable === 'anyOf' && !value.some((item) => isPlainObject(item) && item['type'] === 'null')) {
          list.push({ type: 'null' });
        }
      } else {
        // SCHEMA_MAP: keys are names chosen by the server, never keywords.
        if (!isPlainObject(value)) {
          report(keyword, 'invalid-schema');
          continue;
        }
        const map: Record<string, unknown> = {};
        put(out, keyword, map);
        const isProperties = keyword === 'properties';
        const required = isProperties && profile.nullableOptionals && Array.isArray(src['required']) ? new Set(src['required']) : undefined;
        if (isProperties) propertyKeys = [];
        for (const name of Object.keys(value)) {
          const entry = value[name];
          const entryPath = childPath(path, name);
          if (keyword === 'dependencies' && Array.isArray(entry)) {
            copyValue(map, name, entry, entryPath);
            continue;
          }
          const optional = isProperties && profile.nullableOptionals && !(required?.has(name) ?? false);
          if (placeSchema(map, name, entry, entryPath, refs, optional, reporter(path), name) && isProperties) propertyKeys!.push(name);
        }
      }
    }
    profile.finish?.(out, src, { propertyKeys, nullable, report });
  }
  return holder[0] as Record<string, unknown>;
}
