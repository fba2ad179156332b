/** Options of {@link createToolNameMap}. */
export interface ToolNameMapOptions {
  /**
   * Turn a host tool name into one the vendor accepts. The result may collide with another
   * name: the map disambiguates. A name the function returns unchanged counts as valid.
   */
  readonly normalize: (name: string) => string;
  /**
   * Longest name the vendor accepts; longer names are cut, and suffixes stay within it.
   * @default 64
   */
  readonly maxLength?: number;
}

/** A two-way, read-only map between host tool names and the names declared to a vendor. */
export interface ToolNameMap {
  /** The vendor name of each host name passed to {@link createToolNameMap}, in the same order. */
  readonly vendorNames: readonly string[];
  /** The vendor name declared for a host name (the host name itself when it was not declared). */
  toVendor(hostName: string): string;
  /** The host name behind a vendor name (the vendor name itself when unknown). */
  toHost(vendorName: string): string;
}

const DEFAULT_MAX_LENGTH = 64;

/**
 * Map the host's registered tool names to names a model vendor accepts, for vendors whose name
 * rules are stricter than the host's (`a-z A-Z 0-9 _ . -`, 63 characters), and back again.
 * Names the vendor already accepts keep their name, even when another name normalises to it;
 * the others are normalised, cut to `maxLength` and, on a clash, get `_2`, `_3`... The result
 * depends only on the input order. Build a new map each time the tools are declared.
 *
 * @example
 * ```ts
 * const names = createToolNameMap(['search', 'files.read'], {
 *   normalize: (name) => name.replace(/[^a-zA-Z0-9_-]/g, '_'),
 * });
 * names.vendorNames; // ['search', 'files_read']
 * names.toHost('files_read'); // 'files.read'
 * ```
 */
export function createToolNameMap(hostNames: readonly string[], options: ToolNameMapOptions): ToolNameMap {
  const { normalize } = options;
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  const toVendorNames = new Map<string, string>();
  const toHostNames = new Map<string, string>();
  const claim = (hostName: string, base: string): void => {
    let candidate = base.slice(0, maxLength);
    for (let n = 2; toHostNames.has(candidate); n += 1) {
      const suffix = `_${n}`;
      candidate = `${base.slice(0, maxLength - suffix.length)}${suffix}`;
    }
    toVendorNames.set(hostName, candidate);
    toHostNames.set(candidate, hostName);
  };
  // Names that are already valid go first, so they never lose their name to a normalised one.
  for (const name of hostNames) if (normalize(name) === name) claim(name, name);
  for (const name of hostNames) if (!toVendorNames.has(name)) claim(name, normalize(name));
  return {
    vendorNames: hostNames.map((name) => toVendorNames.get(name) ?? name),
    toVendor: (hostName) => toVendorNames.get(hostName) ?? hostName,
    toHost: (vendorName) => toHostNames.get(vendorName) ?? vendorName,
  };
}
