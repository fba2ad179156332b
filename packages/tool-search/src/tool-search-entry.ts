import type { HostToolDefinition } from '@toolhost/contract';

/**
 * One tool as the index sees it: who offers it, what it is called, and the text that describes
 * it. A host builds these from the tools it discovered (`tools/list`); everything but the three
 * names is optional, and text that is not a string is ignored (servers send anything).
 */
export interface ToolSearchEntry {
  /** The name the model knows the tool by (unique in one index), such as `github__create_issue`. */
  readonly name: string;
  /** The server that offers the tool, as configured (`github`). */
  readonly serverName: string;
  /** The tool's own name on that server (`create_issue`). */
  readonly toolName: string;
  /** A human title (the tool's `title`, or `annotations.title`). */
  readonly title?: string | undefined;
  /** The tool's description. */
  readonly description?: string | undefined;
  /** The tool's `inputSchema`: parameter names, their descriptions and enum values are searched. */
  readonly inputSchema?: unknown;
  /**
   * The tool's `annotations`: `readOnlyHint` marks a tool that only reads, which a question
   * ("which databases exist?") more likely asks for; `title` is used when `title` is absent.
   * Anything else is ignored, and so is a value that is not an object.
   */
  readonly annotations?: unknown;
  /** What the server is about (its `serverInfo.description` or title): a weak hint for every tool of the server. */
  readonly serverDescription?: string | undefined;
}

/**
 * What an index accepts for one tool: a {@link ToolSearchEntry}, or a host's tool definition as
 * `host.servers.listTools()` gives it (`originalName` is its tool name on the server).
 */
export type ToolSearchInput = ToolSearchEntry | HostToolDefinition;
