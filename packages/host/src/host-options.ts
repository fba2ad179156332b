import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import type { HostPolicy } from '@toolhost/confirmation';
import type { McpServerManagerOptions } from '@toolhost/discovery';
import type { ProjectFolder } from './client-features/index.js';
import type { ResultMappingOptions } from './map-tool-result.js';
import type { ModelAdapter } from './model-adapter.js';
import type { SettingsSource } from './resolve-servers.js';
import type { HostStores } from './tool-policy.js';
import type { UiHooks } from './ui-hooks.js';

/** Options of `McpToolHost.create`. Every field is optional. */
export interface McpToolHostOptions<TTool = unknown, TResponse = unknown, TToolResults = unknown> extends SettingsSource {
  /**
   * The model vendor. @default a neutral adapter whose tool declarations are the host's own
   * `HostToolDefinition`s (see `createScriptedAdapter`)
   */
  readonly adapter?: ModelAdapter<TTool, TResponse, TToolResults>;
  /** How the host talks to the user. @default no hooks: non-interactive, calls that need confirmation are denied */
  readonly ui?: UiHooks;
  /** Where approvals ("always allow") and OAuth tokens are kept. @default see {@link HostStores} */
  readonly stores?: HostStores;
  /**
   * Tools allowed without asking, as the user wrote them: `serverName` (every tool) or
   * `serverName.toolName`. Not pinned to a definition. @default []
   */
  readonly allowList?: readonly string[];
  /**
   * The host's own rule, checked before trust and the allow-lists: `deny` refuses, `allow` runs
   * without asking, `ask` or `undefined` falls through (plan modes, headless auto-allow...).
   */
  readonly hostPolicy?: HostPolicy;
  /** Name and version sent to servers in `initialize`. @default { name: 'toolhost', version: '0.1.0' } */
  readonly clientInfo?: Implementation;
  /**
   * Folders offered to servers as `roots`. @default `[projectDir]` when `projectDir` is given, else none
   */
  readonly roots?: ReadonlyArray<string | ProjectFolder>;
  /**
   * Overall cap of one tool call in milliseconds, however often progress resets the server's timeout.
   * @default 3_600_000 (one hour), never less than the server's timeout
   */
  readonly maxTotalCallTimeoutMs?: number;
  /**
   * How tool results are mapped for the model (`untrustedEnvelope`, `structuredContentToModel`,
   * `describeMedia`, `maxDisplayLength`). @default the content-mapper's defaults
   */
  readonly resultMapping?: ResultMappingOptions;
  /** Names of the host's own tools; MCP tools are never registered under them. */
  readonly reservedToolNames?: Iterable<string>;
  /** Reconnect policy for servers that go away. */
  readonly reconnect?: McpServerManagerOptions['reconnect'];
}
