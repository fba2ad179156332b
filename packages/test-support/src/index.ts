// Public API of @toolhost-internal/test-support: setup shared by the adapters' end-to-end tests.
export { createFixtureHost } from './create-fixture-host.js';
export type { FixtureHost, FixtureServer } from './create-fixture-host.js';
export { isPng, PNG_SIGNATURE } from './is-png.js';
export { sseResponse, sseText } from './sse-response.js';
export type { SseEvent, SseResponseOptions } from './sse-response.js';
