/** What changed in a registry after one update. */
export interface RegistryDiff<E> {
  /** Entries that were not registered before. */
  added: E[];
  /** Entries that are no longer registered (their previous value). */
  removed: E[];
  /** Entries registered before and now, whose server, original name or definition changed (new value). */
  changed: E[];
}

/** A read-only view of a registry of entries owned by servers. */
export interface ReadonlyRegistry<E> {
  /** The entry registered under `key` (a registered name, or `serverName + uri` for resources). */
  get(key: string): E | undefined;
  /**
   * The entry registered under `name`, else the one whose alias `name` is: for tools the
   * qualified `serverName__toolName` (see `RegisteredTool.qualifiedName`), which resolves whether
   * the tool is registered under its bare name or not. A registered name always wins over an alias.
   */
  resolve(name: string): E | undefined;
  /** Whether something is registered under `key`. */
  has(key: string): boolean;
  /** Every entry, servers in settings order, each server's entries in the server's order. */
  list(): E[];
  /** The entries of one server. */
  listByServer(serverName: string): E[];
  /** Number of entries. */
  readonly size: number;
}

/**
 * A registry whose whole content is replaced in one step, so readers never see a half-updated
 * state; every replacement reports what changed.
 */
export class Registry<E extends { serverName: string }> implements ReadonlyRegistry<E> {
  #entries = new Map<string, E>();
  #aliases = new Map<string, E>();
  readonly #keyOf: (entry: E) => string;
  readonly #aliasOf: ((entry: E) => string | undefined) | undefined;

  /**
   * Create an empty registry; `keyOf` gives each entry's unique key, `aliasOf` (optional) a
   * second name it can be found under with {@link Registry.resolve}.
   */
  constructor(keyOf: (entry: E) => string, aliasOf?: (entry: E) => string | undefined) {
    this.#keyOf = keyOf;
    this.#aliasOf = aliasOf;
  }

  get(key: string): E | undefined {
    return this.#entries.get(key);
  }

  resolve(name: string): E | undefined {
    return this.#entries.get(name) ?? this.#aliases.get(name);
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  list(): E[] {
    return [...this.#entries.values()];
  }

  listByServer(serverName: string): E[] {
    return this.list().filter((entry) => entry.serverName === serverName);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Replace the whole content with `entries` and return what changed. */
  replace(entries: readonly E[]): RegistryDiff<E> {
    const next = new Map<string, E>();
    for (const entry of entries) next.set(this.#keyOf(entry), entry);
    const diff: RegistryDiff<E> = { added: [], removed: [], changed: [] };
    for (const [key, entry] of next) {
      const previous = this.#entries.get(key);
      if (!previous) diff.added.push(entry);
      else if (!sameEntry(previous, entry)) diff.changed.push(entry);
    }
    for (const [key, entry] of this.#entries) if (!next.has(key)) diff.removed.push(entry);
    this.#entries = next;
    // An alias never hides a registered name; two entries with the same alias: the first (settings order) keeps it.
    const aliases = new Map<string, E>();
    for (const entry of entries) {
      const alias = this.#aliasOf?.(entry);
      if (alias !== undefined && !next.has(alias) && !aliases.has(alias)) aliases.set(alias, entry);
    }
    this.#aliases = aliases;
    return diff;
  }
}

/**
 * Whether two entries are equal: field by field by reference first (a rebuild reuses the tool
 * objects of servers whose lists did not change, so this is the common case and costs no
 * serialisation), else by their JSON.
 */
function sameEntry(a: object, b: object): boolean {
  const keys = Object.keys(a);
  const shallowEqual =
    keys.length === Object.keys(b).length &&
    keys.every((key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key]);
  return shallowEqual || JSON.stringify(a) === JSON.stringify(b);
}

/** Whether a diff reports any change. */
export function isEmptyDiff(diff: RegistryDiff<unknown>): boolean {
  return diff.added.length === 0 && diff.removed.length === 0 && diff.changed.length === 0;
}
