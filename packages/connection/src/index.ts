// Public API of @toolhost/connection: one MCP server's connection.
export { ConnectionError } from './connection-error.js';
export type { ConnectionErrorCode, ConnectionErrorOptions } from './connection-error.js';
// Connecting one server.
export { connectClient } from './connect-client.js';
export type { ConnectClientOptions, OpenedConnection, TransportOptions } from './connect-client.js';
export type { ConnectionRequest, OpenConnection } from './connection-request.js';
export { versionNegotiationOptions, isModernRevision, STDIO_PROBE_TIMEOUT_MS } from './version-negotiation.js';
