// Public API of @toolhost/host. The offline scripted model adapter is on `@toolhost/host/testing`.
export { McpToolHost } from './mcp-tool-host.js';
export type { HandledModelResponse, HostRoots, ToolCallOptions, ToolRequestOptions } from './mcp-tool-host.js';
export type { ToolFilter } from './tool-filter.js';
export type { ResourceToolsOptions } from './tool-call/resource-tools.js';
export { LIST_RESOURCES_TOOL_NAME, READ_RESOURCE_TOOL_NAME, DEFAULT_RESOURCE_TOOL_MAX_LENGTH } from './tool-call/resource-tools.js';
export type { PromptToolsOptions } from './tool-call/prompt-tools.js';
export { LIST_PROMPTS_TOOL_NAME, GET_PROMPT_TOOL_NAME, DEFAULT_PROMPT_TOOL_MAX_LENGTH } from './tool-call/prompt-tools.js';
export { HOST_TOOLS_SERVER_NAME } from './tool-call/host-provided-tool.js';
export type { McpToolHostOptions, HostStores, HostLimits, HostTaskOptions, SkillsOptions } from './host-options.js';
export type { HostTasks, OutstandingTask, TaskRef } from './host-tasks.js';
export { FileTaskStore, InMemoryTaskStore, MAX_TASK_FILE_BYTES, TASK_FILE_NAME } from './tool-call/tasks/task-store.js';
export { MAX_TASK_INPUT_ROUNDS } from './tool-call/tasks/run-task.js';
export { MAX_MCP_PARAM_HEADER_LENGTH } from './tool-call/mcp-param-headers.js';
export type { FileTaskStoreOptions, StoredTask, TaskStore } from './tool-call/tasks/task-store.js';
export { DEFAULT_MAX_MESSAGE_DEPTH } from '@toolhost/connection';
export type { ServerRequestLimits } from '@toolhost/connection';
export type { HostSettings, SettingsSource } from './resolve-servers.js';
export type { ToolCallResult } from './tool-call/run-tool-call.js';
export type { InterceptedToolCall, ToolCallChanges, ToolCallExtras, ToolCallInterceptor } from './tool-call/call-hooks.js';
export type { ResultMappingOptions } from './tool-call/map-tool-result.js';
export { ConnectionPool } from './connection-pool/connection-pool.js';
export { createConnectionPool } from './connection-pool/create-connection-pool.js';
export { DEFAULT_POOL_ACQUIRE_TIMEOUT_MS, DEFAULT_POOL_IDLE_MS, DEFAULT_POOL_MAX_PROCESSES } from '@toolhost/connection/pool';
export type { ConnectionPoolOptions, ConnectionPoolStats, PoolHost } from '@toolhost/connection/pool';
export { HostError } from './host-error.js';
export type { HostErrorCode, HostErrorOptions } from './host-error.js';
export type { HostEvents, HostWarning, LogLevel, ServerStderrEvent } from './host-events.js';
// The groups of McpToolHost and what their methods take and return.
export type { HostServers, ServerInstructions } from './host-servers.js';
export type { RequestOptions } from './request-options.js';
export type { SettingsReloadResult } from './settings-reload-result.js';
export type { HostStatus, ServerStatusView, FormatStatusOptions } from './host-status.js';
export type { ConnectedServer, DiscoveryReport, SkippedServer } from './discovery-report.js';
export type { HostPrompts } from './host-prompts.js';
export type { HostCommands } from './host-commands.js';
export type { HostConfirmations, ConfirmationCheckParams } from './host-confirmations.js';
export type { ConfirmationCheck } from './tool-call/check-tool-call.js';
export type { SlashCommand, SlashCommandResult } from './slash-command.js';
export type { PromptCommand, PromptResult } from './prompt-command.js';
export type { SlashCommandCompletion } from './complete-slash-command.js';
export type { CompletionSuggestions } from './client-features/complete-argument.js';
export type { ResourceContent } from './client-features/read-resource-parts.js';
export type { ResolvedResourceReferences } from './client-features/resource-references.js';
export type { ProjectFolder, TraceContext } from '@toolhost/connection';
export type { HostResources, HostResource, HostResourceTemplate } from './host-resources.js';
export type { HostSkills, HostSkill, SkillLoadOptions, SkillReference } from './skills/host-skills.js';
export type { LoadedSkill, LoadedSkillFile } from './skills/loaded-skill.js';
export type { SkillCommand } from './skills/skill-commands.js';
export type { SkillFileInfo } from './skills/skill-text.js';
export { ACTIVATE_SKILL_TOOL_NAME, DEFAULT_SKILL_MAX_LENGTH } from './skills/skill-text.js';
export { SKILL_APPROVAL_PREFIX } from './skills/authorise-skill.js';
// What host users need from @toolhost/contract (the rest is imported from it directly).
export { ToolhostError } from '@toolhost/contract';
export type {
  ConfirmationOutcome,
  ConfirmationRequest,
  ContentPart,
  HostToolDefinition,
  ModelAdapter,
  ToolCall,
  UiHooks,
} from '@toolhost/contract';
export type { ToolCallTask, ToolCallTaskStatus } from '@toolhost/contract/tasks';
