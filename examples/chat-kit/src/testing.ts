// Test helpers of @toolhost-examples/chat-kit (the `./testing` subpath): run a built chat example against a fake API.
export { startExample, exampleEnv } from './testing/start-example.js';
export type { RunningExample, StartExampleOptions } from './testing/start-example.js';
export { startJsonApi } from './testing/start-json-api.js';
export type { JsonApi } from './testing/start-json-api.js';
export { createChatFolder } from './testing/create-chat-folder.js';
export { playChatSession } from './testing/play-chat-session.js';
