// Public API of @toolhost/cli.
export { runCli } from './run-cli.js';
export type { CliIo } from './cli-io.js';
export { CliError } from './cli-error.js';
export type { CliErrorCode, CliErrorOptions } from './cli-error.js';
export { buildServerEntry, parseEnvAssignment, parseHeader } from './build-server-entry.js';
export type { AddCommandInput } from './build-server-entry.js';
export {
  collectServerStatuses,
  formatServerLine,
  formatServerRow,
  getConfiguredStatus,
  shortenReason,
  MAX_REASON_LENGTH,
} from './server-status.js';
export type {
  ServerConnectionCheck,
  ServerConnectionResult,
  ServerConnectionState,
  ServerListStatus,
  ServerStatusRow,
} from './server-status.js';
export { createProbeConnectionCheck } from './probe-connection-check.js';
export type { ProbeConnectionCheckOptions } from './probe-connection-check.js';
export { collectAuthStatuses, formatAuthRow, usesOAuthSignIn } from './auth-status-rows.js';
export type { AuthStatusRow } from './auth-status-rows.js';
export { selectBrowserOpener, TEST_BROWSER_VARIABLE } from './select-browser-opener.js';
