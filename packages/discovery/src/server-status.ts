/**
 * Connection status of one MCP server. Like every status in toolhost (tool calls, discovery,
 * commands), its values are UPPER_SNAKE_CASE, as the seeds and the development-tool extension write them.
 *
 * `CONNECTING` → `CONNECTED`, or `DISCONNECTED` with the reason in the snapshot's `lastError`.
 * `BLOCKED` and `DISABLED` servers are never started.
 */
export const McpServerStatus = {
  /** A connection attempt (or reconnect) is under way. */
  CONNECTING: 'CONNECTING',
  /** Connected and discovered; its tools, prompts and resources are registered. */
  CONNECTED: 'CONNECTED',
  /** The connection is being closed on purpose. */
  DISCONNECTING: 'DISCONNECTING',
  /** Not connected: never started, failed, offered nothing, or went away. */
  DISCONNECTED: 'DISCONNECTED',
  /** Not started because a policy (allow or exclude list, untrusted folder) blocks it. */
  BLOCKED: 'BLOCKED',
  /** Not started because the user disabled it. */
  DISABLED: 'DISABLED',
} as const;

/** One of the values of {@link McpServerStatus}. */
export type McpServerStatus = (typeof McpServerStatus)[keyof typeof McpServerStatus];

/** Overall progress of {@link McpServerManager.discoverAll}. */
export const DiscoveryState = {
  /** `discoverAll()` has not been called yet. */
  NOT_STARTED: 'NOT_STARTED',
  /** At least one server is still connecting or being discovered. */
  IN_PROGRESS: 'IN_PROGRESS',
  /** Every server has settled (connected, disconnected, blocked or disabled). */
  COMPLETED: 'COMPLETED',
} as const;

/** One of the values of {@link DiscoveryState}. */
export type DiscoveryState = (typeof DiscoveryState)[keyof typeof DiscoveryState];
