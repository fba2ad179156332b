// Public API of @toolhost/langchain: an McpToolHost's tools as LangChain.js structured tools.
export { createLangChainTools } from './create-langchain-tools.js';
export type { CreateLangChainToolsOptions, LangChainConfirm, ToolhostArtifact, ToolhostLangChainTool } from './create-langchain-tools.js';
export { confirmWithInterrupt, isToolhostConfirmationInterrupt, TOOLHOST_CONFIRMATION_INTERRUPT } from './confirm-with-interrupt.js';
export type { ToolhostConfirmationInterrupt, ToolhostConfirmationResume } from './confirm-with-interrupt.js';
export type { LangChainToolHost, LangChainToolHostResult } from './langchain-tool-host.js';
export { DEFAULT_ACCEPTED_MEDIA_TYPES } from './to-message-content.js';
export type { LangChainDataBlock, LangChainTextBlock, LangChainToolContent } from './to-message-content.js';
