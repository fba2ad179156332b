// Public API of @toolhost-examples/chat-kit: what the terminal chat examples share.
export { createTerminal } from './terminal.js';
export type { Terminal } from './terminal.js';
export { runCommand } from './run-command.js';
export type { LineAction } from './run-command.js';
export { createConfirmationPrompt } from './create-confirmation-prompt.js';
export { printToolCall } from './print-tool-call.js';
export { runChat, MAX_TOOL_ROUNDS } from './run-chat.js';
export type { RunChatOptions } from './run-chat.js';
export type { ChatModel, ChatModelReply, ChatModelRequest } from './chat-model.js';
export { runChatExample } from './run-chat-example.js';
export type { ChatExampleOptions } from './run-chat-example.js';
