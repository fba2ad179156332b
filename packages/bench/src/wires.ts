import { fixtureBinPath } from '@toolhost-internal/fixtures';
import type { versionNegotiationOptions } from '@toolhost/discovery';

/** The settings entry of one stdio server, as `versionNegotiationOptions` and `McpToolHost` take it. */
export type StdioServerEntry = Parameters<typeof versionNegotiationOptions>[0] & { readonly command: string; readonly args: string[] };

/** A revision with a wire. */
export type WireRevision = '2025-11-25' | '2026-07-28';

/** An MCP revision the process benchmarks run on, and the stdio fixture that speaks only it. */
export interface Wire {
  /** The revision both sides must negotiate (`2025-11-25`, `2026-07-28`). */
  readonly revision: WireRevision;
  /** `--era` of the stdio fixture: `legacy` speaks `initialize` only, `modern` `server/discover` only. */
  readonly era: 'legacy' | 'modern';
  /**
   * Pin `protocolVersion` to `revision` in the fixture's entry instead of negotiating. For the tiny
   * runs of the tests: a stdio server that has not answered the version probe within 5 s counts as a
   * 2025-era one, which a busy machine starting it can reach (and a 2026-07-28-only fixture then
   * refuses the 2025 handshake). @default false (both sides negotiate, as `pnpm bench` measures)
   */
  readonly pinned?: boolean;
}

/** The wires, in the order their rows run. */
export const WIRES: readonly [Wire, Wire] = [
  { revision: '2025-11-25', era: 'legacy' },
  { revision: '2026-07-28', era: 'modern' },
];

/** The revisions of {@link WIRES}. */
export const WIRE_REVISIONS: readonly WireRevision[] = WIRES.map((wire) => wire.revision);

/** The wire of a revision; throws for an unknown one. */
export function wireOf(revision: string): Wire {
  const wire = WIRES.find((candidate) => candidate.revision === revision);
  if (!wire) throw new TypeError(`no wire for revision '${revision}'; choose from ${WIRE_REVISIONS.join(', ')}`);
  return wire;
}

/**
 * The settings entry that starts the stdio fixture `behaviour` speaking only `wire`'s era. No
 * `protocolVersion` (unless {@link Wire.pinned}): both sides negotiate automatically (what the host
 * does for an entry without a pin), so a wrong era shows up as a wrong negotiated revision, never
 * as a pinned one.
 */
export function fixtureEntry(wire: Wire, behaviour: 'basic' = 'basic'): StdioServerEntry {
  return {
    command: process.execPath,
    args: [fixtureBinPath(behaviour), `--era=${wire.era}`],
    ...(wire.pinned ? { protocolVersion: wire.revision } : {}),
  };
}

/** A side of a benchmark negotiated another revision than its row claims. */
export class WireMismatchError extends Error {
  override readonly name = 'WireMismatchError';
}

/**
 * Throw a {@link WireMismatchError} unless `negotiated` is `wire`'s revision: a row must never
 * report numbers for a wire it did not run on.
 */
export function assertWire(wire: Wire, negotiated: string | undefined, who: string): void {
  if (negotiated !== wire.revision) {
    throw new WireMismatchError(
      `WIRE MISMATCH: ${who} negotiated ${negotiated ?? 'no revision'} on the ${wire.revision} wire (fixture --era=${wire.era})`,
    );
  }
}
