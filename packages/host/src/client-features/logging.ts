import type { Client, LoggingLevel } from '@modelcontextprotocol/client';
import { isModernRevision } from '@toolhost/discovery';
import { HostError } from '../host-error.js';
import type { ServerLogEvent } from '../host-events.js';

export type { ServerLogEvent };

/** MCP log levels, least to most severe (RFC 5424 names). */
export const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Options of {@link registerLogging}. */
export interface LoggingOptions {
  /** The server the client is connected to. */
  readonly serverName: string;
  /** Receives every log message (the host turns it into a `server-log` event). */
  readonly onLog: (event: ServerLogEvent) => void;
}

/** Routes the server's `notifications/message` to `onLog`, tagged with the server's name. */
export function registerLogging(client: Client, options: LoggingOptions): void {
  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    options.onLog({ serverName: options.serverName, level, data, ...(logger !== undefined ? { logger } : {}) });
  });
}

/**
 * Sets a server's log level. On MCP 2026-07-28 there is no `logging/setLevel`: the level travels
 * in the `_meta` of every request (see `HostClient`), so nothing is sent here. On older revisions
 * it sends `logging/setLevel`. Throws a `HostError` with code `CAPABILITY_NOT_SUPPORTED` when the
 * server does not declare the `logging` capability.
 */
export async function setLogLevel(client: Client, options: { serverName: string; level: LoggingLevel }): Promise<void> {
  if (!client.getServerCapabilities()?.logging) {
    throw new HostError({
      code: 'CAPABILITY_NOT_SUPPORTED',
      serverName: options.serverName,
      message: `MCP server '${options.serverName}' does not support logging, so its log level cannot be set.`,
    });
  }
  if (isModernRevision(client.getNegotiatedProtocolVersion())) return;
  await client.setLoggingLevel(options.level);
}
