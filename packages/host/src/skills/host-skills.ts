import { DEFAULT_MCP_TIMEOUT_MS } from '@toolhost/config';
import { readSkillFile, skillVerificationFailure, type Skill, type SkillFile } from '@toolhost/connection';
import { escapeControlText, type ContentPart } from '@toolhost/contract';
import { skillCommands } from '../command-lists.js';
import type { HostCore } from '../host-core.js';
import { HostError } from '../host-error.js';
import type { RequestOptions } from '../request-options.js';
import type { ToolCallRuntime } from '../tool-call/tool-call-runtime.js';
import { authoriseSkillLoad, type SkillLoadSubject } from './authorise-skill.js';
import type { SkillCommand } from './skill-commands.js';
import type { LoadedSkill, LoadedSkillFile } from './loaded-skill.js';
import { formatActivatedSkill, formatAvailableSkills, modelBlockText, type SkillFileInfo } from './skill-text.js';

/** How skills are offered (the `skills` host option, resolved). */
export interface SkillSettings {
  /** Whether the host lists skills at all. */
  readonly enabled: boolean;
  /** Whether the model gets the `activate_skill` tool. */
  readonly activateTool: boolean;
  /** Cap of one skill file's text for the model, in characters. */
  readonly maxLength: number;
}

/** A skill a connected server offers (the MCP Skills extension, SEP-2640), as `host.skills.list()` gives it. */
export interface HostSkill {
  /** Its unique name in this host: its slash command (without `/`) and the `activate_skill` name. */
  readonly name: string;
  /** The server that offers it. */
  readonly serverName: string;
  /** The skill's own name (`frontmatter.name`); several servers may use the same one. */
  readonly skillName: string;
  /** The URI of its `SKILL.md`. */
  readonly uri: string;
  /** What it does: tag characters removed, control, BiDi and zero-width characters escaped. */
  readonly description: string;
  /** How many files it has, `SKILL.md` included; undefined for a `"dynamic"` skill (the server does not list them). */
  readonly fileCount?: number;
  /** The size of all its files in bytes, as listed; undefined for a `"dynamic"` skill. */
  readonly size?: number;
  /** Whether it was loaded in this host (and has not changed since). */
  readonly loaded: boolean;
}

/** Which skill: `{ name }` with its unique name (as `list()` gives it), or `{ serverName, name }` with the skill's own name on that server. */
export interface SkillReference {
  /** The server that offers it; without it, `name` is the skill's unique name in the host. */
  readonly serverName?: string;
  /** The skill's unique name, or with `serverName` its own name (`frontmatter.name`). */
  readonly name: string;
}

/** Options of `host.skills.load()` and `host.skills.readFile()`. */
export interface SkillLoadOptions extends RequestOptions {
  /**
   * Id of the confirmation should the user be asked, to answer it with
   * `host.confirmations.answer({ toolCallId })`. @default a new id (`skill-load-<n>`)
   */
  readonly toolCallId?: string;
  /**
   * The user asked for this skill themselves (a slash command, a skill picker): that is their
   * consent, so it loads where they would otherwise be asked (as Gemini CLI does for a skill's
   * slash command). The host's policy `deny` still refuses. @default false
   */
  readonly userInitiated?: boolean;
}

/** Key of a skill in the set of loaded skills. */
function loadKey(serverName: string, uri: string): string {
  return `${serverName}\u0000${uri}`;
}

/** The path of a skill file relative to the skill's folder, as the entry lists it. */
function relativePath(skillUri: string, fileUri: string): string {
  const root = skillUri.slice(0, skillUri.length - 'SKILL.md'.length);
  if (!fileUri.startsWith(root)) return fileUri;
  const rest = fileUri.slice(root.length);
  try {
    return decodeURIComponent(rest);
  } catch {
    return rest;
  }
}

function isSkillMd(skill: Skill, uri: string): boolean {
  try {
    return new URL(uri).href === new URL(skill.uri).href;
  } catch {
    return uri === skill.uri;
  }
}

/** The other files of a skill, relative to its folder. */
function otherFiles(skill: Skill): readonly SkillFileInfo[] | 'dynamic' {
  if (skill.resources === 'dynamic') return 'dynamic';
  return skill.resources
    .filter((file) => !isSkillMd(skill, file.uri))
    .map((file) => ({ path: relativePath(skill.uri, file.uri), size: file.size }));
}

function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `host.skills`: the skills the connected servers offer (the MCP Skills extension), listed, loaded and read on demand. */
export class HostSkills {
  readonly #core: HostCore;
  readonly #runtime: () => ToolCallRuntime;
  readonly #settings: SkillSettings;
  /** Skills loaded in this host → the entry they were loaded with (a changed entry is not "loaded"). */
  readonly #loaded = new Map<string, string>();
  #counter = 0;

  /** @internal */
  constructor(core: HostCore, runtime: () => ToolCallRuntime, settings: SkillSettings) {
    this.#core = core;
    this.#runtime = runtime;
    this.#settings = settings;
  }

  /**
   * The skills the connected servers offer, servers in settings order (only with the `skills`
   * host option; otherwise none). Listing reads no skill file.
   */
  list(params: { readonly serverName?: string } = {}): HostSkill[] {
    const commands = skillCommands(this.#core.manager);
    const shown = params.serverName === undefined ? commands : commands.filter((command) => command.serverName === params.serverName);
    return shown.map((command) => {
      const { skill } = command.entry;
      const listed = skill.resources === 'dynamic' ? undefined : skill.resources;
      return {
        name: command.name,
        serverName: command.serverName,
        skillName: command.skillName,
        uri: command.uri,
        description: command.description,
        ...(listed ? { fileCount: listed.length, size: listed.reduce((sum, file) => sum + file.size, 0) } : {}),
        loaded: this.#loaded.get(loadKey(command.serverName, command.uri)) === JSON.stringify(skill),
      };
    });
  }

  /**
   * The system-prompt section that tells the model which skills exist, in Gemini CLI's format
   * (`# Available Agent Skills` and `<available_skills>`: each skill's name, description and
   * server and URI); it says to call `activate_skill` when the host offers that tool, else that
   * the user loads a skill with its slash command. Empty when there are no skills. Give it to
   * the model with your system prompt, and again when a `registry-change` of kind `skills` says
   * the skills changed.
   */
  instructions(params: { readonly serverName?: string } = {}): string {
    return formatAvailableSkills(this.list(params), this.#settings.activateTool);
  }

  /**
   * Load a skill for the model: decide under the same rules as a tool call (host policy, the
   * server's `trust`, the allow-lists, "always allow" approvals, which for a skill are pinned to
   * its whole entry), asking the user when they must decide (`Activate Skill: <name>`; allow-list
   * entry `server.skill:<name>`); only then read its `SKILL.md` and verify it against the entry
   * (size, SHA-256 digest, frontmatter field by field). A file that fails verification is never
   * loaded.
   *
   * @throws HostError `SKILL_NOT_FOUND`, `SERVER_NOT_CONNECTED`, `SKILL_VERIFICATION_FAILED` (naming
   * the server, the skill and what differs), `REQUEST_FAILED`; when refused: `CONFIRMATION_REQUIRED`,
   * `DENIED_BY_POLICY`, `TOOL_CALL_DENIED`, `CANCELLED`, `CONFIRMATION_FAILED`; `CLOSED`.
   */
  async load(params: SkillReference, options: SkillLoadOptions = {}): Promise<LoadedSkill> {
    this.#core.assertOpen();
    const command = this.#find(params);
    const skill = command.entry.skill;
    await this.#authorise(command, options);
    const file = await this.#read(command, undefined, options);
    this.#loaded.set(loadKey(command.serverName, command.uri), JSON.stringify(skill));
    const files = otherFiles(skill);
    const text = formatActivatedSkill({
      name: command.name,
      serverName: command.serverName,
      instructions: modelBlockText(file.body ?? '', this.#settings.maxLength),
      files,
      activateTool: this.#settings.activateTool,
    });
    return {
      name: command.name,
      serverName: command.serverName,
      skillName: command.skillName,
      uri: command.uri,
      description: command.description,
      frontmatter: file.frontmatter ?? {},
      body: file.body ?? '',
      verified: file.verified,
      files,
      text,
      parts: [{ type: 'text', text }],
    };
  }

  /**
   * Read one file of a skill (`references/FORMS.md`, a path relative to the skill's folder, as
   * {@link LoadedSkill.files} lists it), verified against the entry like `SKILL.md`. Reading a
   * file of a skill loaded in this host asks nothing more; otherwise it is decided as
   * {@link HostSkills.load} decides.
   *
   * @throws HostError `SKILL_NOT_FOUND` (also for a path the skill does not list), and as {@link HostSkills.load}.
   */
  async readFile(params: SkillReference & { readonly path: string }, options: SkillLoadOptions = {}): Promise<LoadedSkillFile> {
    this.#core.assertOpen();
    const command = this.#find(params);
    const skill = command.entry.skill;
    if (this.#loaded.get(loadKey(command.serverName, command.uri)) !== JSON.stringify(skill)) await this.#authorise(command, options);
    const file = await this.#read(command, params.path, options);
    const { maxLength } = this.#settings;
    let parts: ContentPart[];
    if (file.text !== undefined) {
      parts = [{ type: 'text', text: modelBlockText(file.text, maxLength) }];
    } else {
      const mimeType = file.mimeType ?? 'application/octet-stream';
      const media = mimeType.startsWith('image/') || mimeType.startsWith('audio/');
      const data = media && Math.ceil(file.bytes.byteLength / 3) * 4 <= maxLength ? base64Of(file.bytes) : undefined;
      parts =
        data !== undefined
          ? [{ type: 'inlineData', mimeType, data, source: 'resource', uri: file.uri }]
          : [
              {
                type: 'text',
                text: `[Binary Data (${escapeControlText(mimeType, { maxLength: 200 })}), ${file.bytes.byteLength} bytes, not included]`,
              },
            ];
    }
    return {
      name: command.name,
      serverName: command.serverName,
      path: params.path,
      uri: file.uri,
      ...(file.mimeType !== undefined ? { mimeType: file.mimeType } : {}),
      size: file.bytes.byteLength,
      verified: file.verified,
      ...(file.text !== undefined ? { text: file.text } : {}),
      parts,
    };
  }

  /** Resolve a reference to one skill command. */
  #find(params: SkillReference): SkillCommand {
    if (!this.#settings.enabled) {
      throw new HostError({
        code: 'SKILL_NOT_FOUND',
        ...(params.serverName !== undefined ? { serverName: params.serverName } : {}),
        commandName: params.name,
        message: `Skills are not enabled in this host, so skill "${escapeControlText(params.name, { maxLength: 200 })}" cannot be loaded; create the host with the skills option (McpToolHost.create({ skills: true })).`,
      });
    }
    const commands = skillCommands(this.#core.manager);
    const name = escapeControlText(params.name, { maxLength: 200 });
    if (params.serverName === undefined) {
      const exact = commands.find((command) => command.name === params.name);
      if (exact) return exact;
      const byOwnName = commands.filter((command) => command.skillName === params.name);
      if (byOwnName.length === 1 && byOwnName[0]) return byOwnName[0];
      throw new HostError({
        code: 'SKILL_NOT_FOUND',
        commandName: params.name,
        message:
          byOwnName.length > 1
            ? `Several MCP servers offer a skill named "${name}" (${byOwnName.map((command) => `"${command.name}"`).join(', ')}); name one of those, or give serverName.`
            : `No connected MCP server offers a skill named "${name}". Skills: ${commands.map((command) => command.name).join(', ') || 'none'}.`,
      });
    }
    const { serverName } = params;
    if (!this.#core.manager.getClient(serverName)) throw this.#core.notConnected(serverName, `load skill "${name}"`);
    const own = commands.filter((command) => command.serverName === serverName);
    const found = own.filter((command) => command.skillName === params.name);
    const chosen = found.length === 1 ? found[0] : own.find((command) => command.name === params.name);
    if (chosen) return chosen;
    throw new HostError({
      code: 'SKILL_NOT_FOUND',
      serverName,
      commandName: params.name,
      message:
        found.length > 1
          ? `MCP server "${serverName}" offers several skills named "${name}" (${found.map((command) => command.uri).join(', ')}); give the unique name of one: ${found.map((command) => `"${command.name}"`).join(', ')}.`
          : `MCP server "${serverName}" offers no skill named "${name}". Its skills: ${own.map((command) => command.skillName).join(', ') || 'none'}.`,
    });
  }

  async #authorise(command: SkillCommand, options: SkillLoadOptions): Promise<void> {
    const server = this.#core.serversByName.get(command.serverName);
    const subject: SkillLoadSubject = {
      serverName: command.serverName,
      command: command.name,
      entry: command.entry.skill,
      trust: server?.config.trust === true,
      serverIdentity: server ? `${server.transport.transport}:${server.transport.target}` : `unknown:${command.serverName}`,
    };
    await authoriseSkillLoad(this.#runtime(), subject, {
      toolCallId: options.toolCallId ?? `skill-load-${(this.#counter += 1)}`,
      signal: options.signal,
      userInitiated: options.userInitiated === true,
    });
  }

  /** Read and verify one file of the skill (its `SKILL.md` without `path`). */
  async #read(command: SkillCommand, path: string | undefined, options: RequestOptions): Promise<SkillFile> {
    const { serverName } = command;
    const skill = command.entry.skill;
    const label = `skill "${command.skillName}" of MCP server "${serverName}"`;
    const client = this.#core.requireClient(serverName, `load ${label}`);
    const timeout = this.#core.serversByName.get(serverName)?.config.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
    try {
      return await readSkillFile(client, skill, path, { timeout, ...(options.signal ? { signal: options.signal } : {}) });
    } catch (error) {
      const shownPath = path === undefined ? 'SKILL.md' : escapeControlText(path, { maxLength: 500 });
      const detail = escapeControlText(error instanceof Error ? error.message : String(error), { maxLength: 2000 });
      const verification = skillVerificationFailure(error);
      if (verification?.reason === 'unlisted') {
        const files = otherFiles(skill);
        throw new HostError({
          code: 'SKILL_NOT_FOUND',
          serverName,
          commandName: command.name,
          message: `${label} has no file "${shownPath}"; its files: ${files === 'dynamic' ? 'not listed (dynamic skill)' : files.map((file) => file.path).join(', ') || 'none besides SKILL.md'}.`,
          cause: error,
        });
      }
      if (verification) {
        throw new HostError({
          code: 'SKILL_VERIFICATION_FAILED',
          serverName,
          commandName: command.name,
          uri: verification.uri,
          message: `${label} was not loaded: its ${shownPath} failed ${verification.reason} verification against the server's skill entry (${detail}). The server serves content other than it listed; do not use this skill until the server is fixed.`,
          cause: error,
        });
      }
      throw new HostError({
        code: 'REQUEST_FAILED',
        serverName,
        commandName: command.name,
        uri: skill.uri,
        message: `Reading ${shownPath} of ${label} failed: ${detail}`,
        cause: error,
      });
    }
  }
}
