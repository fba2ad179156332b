import type { HostWarning } from './host-events.js';

/** What {@link HostServers.reload} did. */
export interface SettingsReloadResult {
  /**
   * False when nothing was applied because a settings file that was fine became malformed or
   * unreadable (an edit in progress): every server keeps running as configured before, and
   * `warnings` names the file.
   */
  readonly applied: boolean;
  /** Servers that were added (and connected, once discovery has started). */
  readonly added: readonly string[];
  /** Servers that were removed: their connection closed, their process ended. */
  readonly removed: readonly string[];
  /** Servers whose entry changed (command, URL, environment, enabled, blocked...): disconnected, then connected again when they may run. */
  readonly restarted: readonly string[];
  /** Servers whose `timeout`, `trust` or `description` changed: applied without reconnecting. */
  readonly updated: readonly string[];
  /** The host's warnings after the reload (the ones that are new also arrive as `warning` events). */
  readonly warnings: readonly HostWarning[];
}
