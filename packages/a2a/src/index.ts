// Public API of @toolhost/a2a: an A2A server around an McpToolHost, with the development-tool extension.
export {
  createA2aServer,
  AGENT_CARD_PATH,
  DEFAULT_CONFIRMATION_TIMEOUT_MS,
  DEFAULT_FINISHED_TASK_TTL_MS,
  DEFAULT_MAX_FINISHED_TASKS,
  DEFAULT_MAX_LIVE_TASKS,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_TASK_HISTORY,
  DEFAULT_MAX_TOOL_ROUNDS,
} from './a2a-server.js';
export type { A2aServer, A2aServerOptions } from './a2a-server.js';
export type { A2aTaskStore } from './bounded-task-store.js';
export { MAX_PUSH_CONFIGS_PER_TASK } from './push-config-store.js';
export { createScriptedModel } from './agent-model.js';
export type { AgentModel, AgentModelReply, AgentModelRequest, ScriptedModelItem, ScriptedModelResponse } from './agent-model.js';
export { DEVELOPMENT_TOOL_EXTENSION_URI, DevelopmentToolEventKind, toWireSlashCommand, toWireToolCall } from './development-tool.js';
export type {
  AgentSettings,
  AgentThought,
  DevelopmentToolEvent,
  ExecuteSlashCommandResponse,
  ToolCallConfirmation,
  WireConfirmationOption,
  WireConfirmationRequest,
  WireSlashCommand,
  WireToolCall,
} from './development-tool.js';
export { checkWebhookUrl, MAX_QUEUED_NOTIFICATIONS, NOTIFICATION_TOKEN_HEADER } from './push-notifications.js';
export type { WebhookPolicy } from './push-notifications.js';
export { RPC_ERRORS } from './validate-message.js';
