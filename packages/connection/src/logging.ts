import type { Client, LoggingLevel } from '@modelcontextprotocol/client';
import { ConnectionError } from './connection-error.js';
import { isModernRevision } from './version-negotiation.js';

/** A log message a server sent (`notifications/message`), tagged with the server's name. */
export interface ServerLogEvent {
  /** The server that sent it. */
  readonly serverName: string;
  /** Its severity. */
  readonly level: LoggingLevel;
  /** The server's logger name, when it gave one. */
  readonly logger?: string;
  /** The payload (any JSON value; untrusted). */
  readonly data: unknown;
}

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
 * in the `_meta` of every request (see `ConnectionClientSettings.outboundMeta`), so nothing is sent
 * here. On older revisions it sends `logging/setLevel`. Throws a {@link ConnectionError} with code
 * `CAPABILITY_NOT_SUPPORTED` when the server does not declare the `logging` capability.
 */
export async function setLogLevel(client: Client, options: { serverName: string; level: LoggingLevel }): Promise<void> {
  if (!client.getServerCapabilities()?.logging) {
    throw new ConnectionError({
      code: 'CAPABILITY_NOT_SUPPORTED',
      serverName: options.serverName,
      message: `MCP server '${options.serverName}' does not support logging, so its log level cannot be set.`,
    });
  }
  if (isModernRevision(client.getNegotiatedProtocolVersion())) return;
  await client.setLoggingLevel(options.level);
}
