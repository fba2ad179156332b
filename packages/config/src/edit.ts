// Public API of @toolhost/config/edit: editing settings files (adding, removing, enabling and
// disabling servers; comment-preserving JSONC edits). A subpath, so that the root stays about
// loading and validating settings.
export { addServer } from './add-server.js';
export type { AddServerOptions, AddServerResult } from './add-server.js';
export { removeServer } from './remove-server.js';
export type { RemoveServerOptions, RemoveServerResult } from './remove-server.js';
export { setServerEnabled } from './set-server-enabled.js';
export type { SetServerEnabledOptions, SetServerEnabledResult } from './set-server-enabled.js';
export { setJsoncProperty, removeJsoncProperty } from './edit-jsonc.js';
export type { JsoncPropertyEdit } from './edit-jsonc.js';
