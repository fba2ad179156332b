// Public API of @toolhost/host/testing: an offline model adapter for tests, demos and examples.
export { createScriptedAdapter } from './create-scripted-adapter.js';
export type {
  ScriptedAdapter,
  ScriptedAdapterOptions,
  ScriptedTurn,
  ScriptedToolDeclaration,
  ScriptedToolResults,
} from './create-scripted-adapter.js';
