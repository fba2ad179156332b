import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { escapeControlText, maskUrl } from '@toolhost/contract';
import { McpServerStatus, type RegisteredTool, type ServerSnapshot } from '@toolhost/discovery';
import type { HostWarning } from './host-events.js';
import type { HostStatus, ServerStatusView } from './host-status.js';
import { needsAuthentication } from './host-auth.js';
import type { ResolvedServer } from './resolve-servers.js';
import type { PromptCommand } from './prompt-command.js';
import type { SkillCommand } from './skills/skill-commands.js';
import { modelToolDescription } from './tool-call/callable-tool.js';

/** Inputs of {@link buildStatus}. */
export interface BuildStatusInput {
  /** The discovery state. */
  readonly discoveryState: string;
  /** The servers as configured, in settings order. */
  readonly servers: readonly ResolvedServer[];
  /** Snapshots from discovery. */
  readonly snapshots: readonly ServerSnapshot[];
  /** Registered tools. */
  readonly tools: readonly RegisteredTool[];
  /** Prompt commands. */
  readonly prompts: readonly PromptCommand[];
  /** Skill commands. */
  readonly skills: readonly SkillCommand[];
  /** The host's warnings. */
  readonly warnings: readonly HostWarning[];
}

/** Assemble the `/mcp` view from the configuration and discovery's snapshots. */
export function buildStatus(input: BuildStatusInput): HostStatus {
  const snapshots = new Map(input.snapshots.map((snapshot) => [snapshot.name, snapshot]));
  const servers = input.servers.map((server): ServerStatusView => {
    const snapshot = snapshots.get(server.name);
    const { config, transport } = server;
    const stdio = transport.transport === 'stdio';
    const stderrTail = (snapshot?.stderrTail ?? []).map((line) => escapeControlText(line));
    const lastError = snapshot?.lastError?.message ?? server.blockedReason;
    const errorCode =
      server.blockedReason !== undefined
        ? (server.blockedCode ?? 'SERVER_BLOCKED')
        : snapshot?.lastError
          ? (snapshot.lastError.causeCode ?? snapshot.lastError.code)
          : undefined;
    const connected = snapshot?.status === McpServerStatus.CONNECTED;
    return {
      name: server.name,
      status:
        snapshot?.status ??
        (server.disabled ? McpServerStatus.DISABLED : server.blockedReason ? McpServerStatus.BLOCKED : McpServerStatus.DISCONNECTED),
      transport: snapshot?.transportType ?? transport.transport,
      ...(snapshot?.protocolVersion ? { protocolVersion: snapshot.protocolVersion } : {}),
      ...(stdio ? { command: transport.target } : { url: maskUrl(transport.target) }),
      ...(stdio && config.cwd ? { cwd: config.cwd } : {}),
      timeoutMs: config.timeout ?? DEFAULT_MCP_TIMEOUT_MS,
      timeoutConfigured: config.timeout !== undefined,
      trust: config.trust === true,
      ...(config.description ? { description: config.description } : {}),
      envNames: Object.keys(config.env ?? {}),
      headerNames: Object.keys(config.headers ?? {}),
      tools: input.tools
        .filter((tool) => tool.serverName === server.name)
        .map((tool) => ({
          name: tool.registeredName,
          serverToolName: tool.originalName,
          description: modelToolDescription(tool.tool.description ?? ''),
          inputSchema: tool.tool.inputSchema,
        })),
      extensions: Object.keys(snapshot?.capabilities?.extensions ?? {}).map((name) => escapeControlText(name, { maxLength: 200 })),
      excludedTools: (snapshot?.excludedTools ?? []).map((tool) => ({ serverToolName: tool.name, reason: tool.reason })),
      prompts: input.prompts.filter((prompt) => prompt.serverName === server.name).map((prompt) => prompt.name),
      resourceCount: snapshot?.resources.length ?? 0,
      skills: input.skills.filter((skill) => skill.serverName === server.name).map((skill) => skill.name),
      skillCount: snapshot?.skills.length ?? 0,
      excludedSkills: (snapshot?.excludedSkills ?? []).map((skill) => ({
        ...(skill.name !== undefined ? { name: escapeControlText(skill.name, { maxLength: 200 }) } : {}),
        ...(skill.uri !== undefined ? { uri: escapeControlText(skill.uri, { maxLength: 500 }) } : {}),
        reason: escapeControlText(skill.reason, { maxLength: 1000 }),
      })),
      ...(lastError !== undefined && !connected ? { lastError } : {}),
      ...(errorCode !== undefined && !connected ? { errorCode } : {}),
      needsAuthentication: !connected && needsAuthentication(snapshot?.lastError),
      ...(stderrTail.length > 0 ? { stderrTail } : {}),
      ...(snapshot?.instructions ? { instructions: escapeControlText(snapshot.instructions, { multiline: true }) } : {}),
    };
  });
  return { discoveryState: input.discoveryState, servers, warnings: input.warnings };
}
