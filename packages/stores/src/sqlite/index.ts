// @toolhost/stores/sqlite: a Keyv store adapter on an SQLite file through node-sqlite3-wasm (an optional peer dependency).
export { KeyvSqliteWasm } from './keyv-sqlite-wasm.js';
export type { KeyvSqliteWasmOptions } from './keyv-sqlite-wasm.js';
