import type { ToolNamePolicy } from '@toolhost/contract';
import { assignToolNames, generateValidName } from '@toolhost/schema-sanitizer';
import type { ServerOfferings } from './discover-server.js';
import type { RegisteredPrompt, RegisteredResource, RegisteredResourceTemplate, RegisteredSkill, RegisteredTool } from './manager-types.js';

/** What one connected server offers, in settings order. */
export interface ConnectedOfferings {
  /** Server name. */
  serverName: string;
  /** Its offerings. */
  offerings: ServerOfferings;
}

/** The full content of every registry. */
export interface RegistryEntries {
  /** Tools with their registered names. */
  tools: RegisteredTool[];
  /** Prompts with their registered names. */
  prompts: RegisteredPrompt[];
  /** Resources. */
  resources: RegisteredResource[];
  /** Resource templates. */
  resourceTemplates: RegisteredResourceTemplate[];
  /** Skills. */
  skills: RegisteredSkill[];
}

/** How tools are named: names the host keeps for itself, and the vendor's naming policy. */
export interface NamingOptions {
  /** Names MCP tools never get. */
  readonly reservedNames?: Iterable<string> | undefined;
  /** The vendor's naming policy. @default DEFAULT_TOOL_NAME_POLICY */
  readonly policy?: ToolNamePolicy | undefined;
}

/**
 * Build the content of every registry from the connected servers, in settings order, so the
 * names never depend on which server answered first. Names come from `assignToolNames`
 * (first server keeps the bare name, later ones `server__name`, then a stable hash).
 */
export function buildRegistryEntries(servers: readonly ConnectedOfferings[], options: NamingOptions = {}): RegistryEntries {
  const entries: RegistryEntries = { tools: [], prompts: [], resources: [], resourceTemplates: [], skills: [] };
  const tools = servers.flatMap(({ serverName, offerings }) => uniqueByName(offerings.tools).map((tool) => ({ serverName, tool })));
  const toolNames = assignToolNames(
    tools.map(({ serverName, tool }) => ({ serverName, toolName: tool.name })),
    { reservedNames: options.reservedNames ?? [], ...(options.policy ? { policy: options.policy } : {}) },
  ).names;
  tools.forEach(({ serverName, tool }, index) => {
    const registeredName = toolNames[index]?.registeredName ?? tool.name;
    const qualifiedName = qualifiedToolName(serverName, tool.name, options.policy);
    entries.tools.push({ registeredName, serverName, originalName: tool.name, qualifiedName, tool });
  });
  const prompts = servers.flatMap(({ serverName, offerings }) => uniqueByName(offerings.prompts).map((prompt) => ({ serverName, prompt })));
  const promptNames = assignToolNames(
    prompts.map(({ serverName, prompt }) => ({ serverName, toolName: promptCommandName(prompt.name) })),
  ).names;
  prompts.forEach(({ serverName, prompt }, index) => {
    const registeredName = promptNames[index]?.registeredName ?? prompt.name;
    entries.prompts.push({ registeredName, serverName, originalName: prompt.name, prompt });
  });
  for (const { serverName, offerings } of servers) {
    for (const resource of offerings.resources) {
      entries.resources.push({ serverName, uri: resource.uri, resource });
    }
    for (const resourceTemplate of offerings.resourceTemplates) {
      entries.resourceTemplates.push({ serverName, uriTemplate: resourceTemplate.uriTemplate, resourceTemplate });
    }
    for (const skill of offerings.skills) {
      entries.skills.push({ serverName, uri: skill.uri, name: skill.frontmatter.name, skill });
    }
  }
  return entries;
}

/**
 * The qualified name of a tool, `serverName__toolName` made valid under `policy`: the name a
 * later server's tool gets when the bare name is taken, and the alias every tool keeps.
 *
 * @example
 * qualifiedToolName('github', 'search'); // 'github__search'
 */
export function qualifiedToolName(serverName: string, toolName: string, policy?: ToolNamePolicy): string {
  return generateValidName(`${serverName}__${toolName}`, policy);
}

/**
 * The slash-command form of a prompt name, as in Gemini CLI: trimmed, and every run of
 * whitespace replaced by `-` (`' Prompt  Name '` → `Prompt-Name`). Tool naming then applies
 * (other characters outside `a-z A-Z 0-9 _ . -` become `_`, conflicts get `serverName__`).
 */
export function promptCommandName(name: string): string {
  return name.trim().replace(/\s+/g, '-');
}

/** A server listing the same name twice can only be called once: the first definition wins. */
function uniqueByName<T extends { name: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.name) && seen.add(item.name));
}

/** Registry key of a resource. */
export function resourceKey(serverName: string, uri: string): string {
  return `${serverName}\u0000${uri}`;
}
