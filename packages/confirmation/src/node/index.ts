// Public API of @toolhost/confirmation/node: the Node-only file store.
export { JsonFileAllowListStore } from './json-file-allow-list-store.js';
export type { JsonFileAllowListStoreOptions } from './json-file-allow-list-store.js';
