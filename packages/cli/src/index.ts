// Public API of @toolhost/cli.
export { runCli } from './run-cli.js';
export type { CliIo } from './cli-io.js';
export { CliError, CliErrorCode } from './cli-error.js';
export { buildServerEntry, parseEnvAssignment, parseHeader } from './build-server-entry.js';
export type { AddCommandInput } from './build-server-entry.js';
export { collectServerStatuses, formatServerLine, getConfiguredStatus } from './server-status.js';
export type { ServerConnectionCheck, ServerConnectionState, ServerListStatus } from './server-status.js';
