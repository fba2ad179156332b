/**
 * Connection status of one MCP server.
 *
 * `CONNECTING` → `CONNECTED`, or `DISCONNECTED` with the reason in the snapshot's `lastError`.
 * `BLOCKED` and `DISABLED` servers are never started.
 */
export const McpServerStatus = {
  /** A connection attempt (or reconnect) is under way. */
  CONNECTING: 'connecting',
  /** Connected and discovered; its tools, prompts and resources are registered. */
  CONNECTED: 'connected',
  /** The connection is being closed on purpose. */
  DISCONNECTING: 'disconnecting',
  /** Not connected: never started, failed, offered nothing, or went away. */
  DISCONNECTED: 'disconnected',
  /** Not started because a policy (allow or exclude list, untrusted folder) blocks it. */
  BLOCKED: 'blocked',
  /** Not started because the user disabled it. */
  DISABLED: 'disabled',
} as const;

/** One of the values of {@link McpServerStatus}. */
export type McpServerStatus = (typeof McpServerStatus)[keyof typeof McpServerStatus];

/** Overall progress of {@link McpServerManager.discoverAll}. */
export const DiscoveryState = {
  /** `discoverAll()` has not been called yet. */
  NOT_STARTED: 'not_started',
  /** At least one server is still connecting or being discovered. */
  IN_PROGRESS: 'in_progress',
  /** Every server has settled (connected, disconnected, blocked or disabled). */
  COMPLETED: 'completed',
} as const;

/** One of the values of {@link DiscoveryState}. */
export type DiscoveryState = (typeof DiscoveryState)[keyof typeof DiscoveryState];
