/** Options of {@link ToolNameMap}. */
export interface ToolNameMapOptions {
  /** Turn a host tool name into one the vendor accepts (may collide; the map disambiguates). */
  normalize: (name: string) => string;
  /** Longest name the vendor accepts. */
  maxLength: number;
}

/**
 * Two-way map between the host's registered tool names and the names declared to the vendor,
 * for vendors whose name rules are stricter than the host's (`a-z A-Z 0-9 _ . -`, 63 chars).
 * Names the vendor already accepts are kept; the others are normalised and, on a clash, get
 * `_2`, `_3`... Rebuilt on every declaration; unknown vendor names map to themselves.
 */
export class ToolNameMap {
  private readonly toVendorNames = new Map<string, string>();
  private readonly toHostNames = new Map<string, string>();

  constructor(private readonly options: ToolNameMapOptions) {}

  /** Assign vendor names to the host names about to be declared; returns them in the same order. */
  assign(hostNames: readonly string[]): string[] {
    this.toVendorNames.clear();
    this.toHostNames.clear();
    const { normalize } = this.options;
    // Names that are already valid go first, so they never lose their name to a normalised one.
    for (const name of hostNames) if (normalize(name) === name) this.claim(name, name);
    for (const name of hostNames) if (!this.toVendorNames.has(name)) this.claim(name, normalize(name));
    return hostNames.map((name) => this.toVendorNames.get(name) ?? name);
  }

  /** The vendor name declared for a host name (the host name itself when it was not declared). */
  toVendor(hostName: string): string {
    return this.toVendorNames.get(hostName) ?? hostName;
  }

  /** The host name behind a vendor name (the vendor name itself when unknown). */
  toHost(vendorName: string): string {
    return this.toHostNames.get(vendorName) ?? vendorName;
  }

  private claim(hostName: string, base: string): void {
    let candidate = base.slice(0, this.options.maxLength);
    for (let n = 2; this.toHostNames.has(candidate); n += 1) {
      const suffix = `_${n}`;
      candidate = `${base.slice(0, this.options.maxLength - suffix.length)}${suffix}`;
    }
    this.toVendorNames.set(hostName, candidate);
    this.toHostNames.set(candidate, hostName);
  }
}
