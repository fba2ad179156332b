// Public API of @toolhost/result-budget/node: the Node-only file store.
export { FileResultStore } from './file-result-store.js';
export type { FileResultStoreOptions } from './file-result-store.js';
