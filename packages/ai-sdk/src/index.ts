// Public API of @toolhost/ai-sdk: McpToolHost's MCP tools as an AI SDK ToolSet, with toolhost's confirmations as AI SDK tool approvals.
export { createAiSdkTools } from './create-ai-sdk-tools.js';
export type { AiSdkToolsOptions } from './create-ai-sdk-tools.js';
export type { AiSdkToolHost, AiSdkToolHostResult } from './ai-sdk-tool-host.js';
export { createAiSdkAdapter } from './create-ai-sdk-adapter.js';
export type { AiSdkAdapter, AiSdkAdapterOptions, AiSdkToolCalls, AiSdkToolDeclaration } from './create-ai-sdk-adapter.js';
export { AI_SDK_TOOL_NAME_POLICY } from './ai-sdk-tool-name-policy.js';
export { toolApprovalResponse, toolApprovalOutcome } from './tool-approval.js';
export { toAiSdkModelOutput } from './tool-output.js';
export type { AiSdkToolOutput, AiSdkToolResultOutput } from './tool-output.js';
