// The MCP SDK types a user of a ConnectionClient meets (results, tool definitions, options), so
// that packages above this one never import the SDK themselves.
export type { CallToolRequestOptions, CallToolResult, GetPromptResult, LoggingLevel, Tool } from '@modelcontextprotocol/client';
export type { Skill, SkillFile } from '@modelcontextprotocol/client/ext/skills';
