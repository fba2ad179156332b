import { buildRegistryEntries, resourceKey, type ConnectedOfferings, type NamingOptions } from './build-registry-entries.js';
import type {
  McpServerManagerEvents,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredResourceTemplate,
  RegisteredSkill,
  RegisteredTool,
} from './manager-types.js';
import { isEmptyDiff, Registry } from './registry.js';
import type { TypedEmitter } from './typed-emitter.js';

/** The registries of a manager (tools, prompts, resources, resource templates, skills), rebuilt together and announced through its events. */
export class ServerRegistries {
  /** Tools by registered name. */
  readonly tools = new Registry<RegisteredTool>(
    (entry) => entry.registeredName,
    (entry) => entry.qualifiedName,
  );
  /** Prompts by registered name. */
  readonly prompts = new Registry<RegisteredPrompt>((entry) => entry.registeredName);
  /** Resources by `resourceKey(serverName, uri)`. */
  readonly resources = new Registry<RegisteredResource>((entry) => resourceKey(entry.serverName, entry.uri));
  /** Resource templates by `resourceKey(serverName, uriTemplate)`. */
  readonly resourceTemplates = new Registry<RegisteredResourceTemplate>((entry) => resourceKey(entry.serverName, entry.uriTemplate));
  /** Skills by `resourceKey(serverName, uri)` (the `SKILL.md` URI). */
  readonly skills = new Registry<RegisteredSkill>((entry) => resourceKey(entry.serverName, entry.uri));
  readonly #emitter: TypedEmitter<McpServerManagerEvents>;
  readonly #naming: NamingOptions;

  /** Create empty registries that announce changes on `emitter`. */
  constructor(emitter: TypedEmitter<McpServerManagerEvents>, naming: NamingOptions) {
    this.#emitter = emitter;
    this.#naming = naming;
  }

  /** Replace every registry from the connected servers (settings order) and emit what changed. */
  rebuild(connected: readonly ConnectedOfferings[]): void {
    const entries = buildRegistryEntries(connected, this.#naming);
    const tools = this.tools.replace(entries.tools);
    const prompts = this.prompts.replace(entries.prompts);
    const resources = this.resources.replace(entries.resources);
    const templates = this.resourceTemplates.replace(entries.resourceTemplates);
    const skills = this.skills.replace(entries.skills);
    if (!isEmptyDiff(tools)) this.#emitter.emit('tools-change', tools);
    if (!isEmptyDiff(prompts)) this.#emitter.emit('prompts-change', prompts);
    if (!isEmptyDiff(resources) || !isEmptyDiff(templates)) {
      this.#emitter.emit('resources-change', { ...resources, templates });
    }
    if (!isEmptyDiff(skills)) this.#emitter.emit('skills-change', skills);
  }
}
