import { BUILT_IN_COMMANDS } from './built-in-commands.js';
import { findArgumentPosition, type SlashCommandCompletion } from './complete-slash-command.js';
import { promptCommands, skillCommands } from './command-lists.js';
import type { HostCore } from './host-core.js';
import type { HostPrompts } from './host-prompts.js';
import type { HostServers } from './host-servers.js';
import type { RequestOptions } from './request-options.js';
import { runSlashCommand } from './run-slash-command.js';
import { promptToSlashCommand, skillToSlashCommand, type SlashCommand, type SlashCommandResult } from './slash-command.js';
import type { HostSkills } from './skills/host-skills.js';

/** `host.commands`: slash commands, the built-in `/mcp`, one per MCP prompt and one per MCP skill. */
export class HostCommands {
  readonly #core: HostCore;
  readonly #servers: HostServers;
  readonly #prompts: HostPrompts;
  readonly #skills: HostSkills;

  /** @internal */
  constructor(core: HostCore, servers: HostServers, prompts: HostPrompts, skills: HostSkills) {
    this.#core = core;
    this.#servers = servers;
    this.#prompts = prompts;
    this.#skills = skills;
  }

  /**
   * Every slash command, built-ins first, then the prompts, then the skills (with the `skills`
   * host option), in the shape of the development-tool extension's `commands/get`.
   */
  list(): SlashCommand[] {
    const prompts = this.#prompts.list();
    return [
      ...BUILT_IN_COMMANDS,
      ...prompts.map(promptToSlashCommand),
      ...skillCommands(this.#core.manager, prompts).map(skillToSlashCommand),
    ];
  }

  /**
   * Run a slash command line: a prompt (`/poem-writer --title="Gemini CLI" --mood="reverent"`,
   * or positional `/poem-writer "Gemini CLI" reverent`) returns its text ready for the model;
   * `/name --help` describes a prompt's arguments; a skill (`/pdf-processing fill this form`) is
   * loaded and verified as `host.skills.load` does, the command counting as the user's consent
   * (as in Gemini CLI: no question, but the host's policy `deny` still refuses), and returns the
   * skill for the model followed by the text typed after it; `/mcp [list|desc|schema] [server]` returns the
   * status view; `/mcp auth [server]` signs in; `/mcp refresh [server] [--restart]` discovers
   * servers again; `/mcp reload` reads the settings files again; `/mcp enable <server> [--session]`
   * and `/mcp disable <server> [--session]` turn a server on or off (saved in the enablement file
   * unless `--session`).
   *
   * @throws HostError `INVALID_SLASH_COMMAND`, `COMMAND_NOT_FOUND`, `MISSING_PROMPT_ARGUMENTS`,
   * `SERVER_NOT_CONNECTED`, `REQUEST_FAILED`, `INVALID_RESPONSE`, `SERVER_NOT_FOUND`, `SERVER_BLOCKED`;
   * for a skill `SKILL_VERIFICATION_FAILED`, `DENIED_BY_POLICY`
   */
  async run(params: { readonly line: string }, options: RequestOptions = {}): Promise<SlashCommandResult> {
    this.#core.assertOpen();
    return runSlashCommand(params.line, {
      prompts: () => promptCommands(this.#core.manager),
      skills: () => skillCommands(this.#core.manager),
      loadSkill: (skill) =>
        this.#skills.load({ name: skill.name }, { userInitiated: true, ...(options.signal ? { signal: options.signal } : {}) }),
      getClient: (serverName) => this.#core.manager.getClient(serverName),
      resume: (serverName) => this.#core.resume(serverName),
      status: () => this.#servers.status(),
      authenticate: (serverName) => this.#servers.authenticate({ serverName }, options),
      refresh: (params) => this.#servers.refresh(params, options),
      reload: () => this.#servers.reload(options),
      setEnabled: async ({ serverName, enabled, session }) => {
        const view = enabled
          ? await this.#servers.enable({ serverName, session }, options)
          : await this.#servers.disable({ serverName, session }, options);
        return { name: view.name, status: view.status };
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * Completions while the user types a prompt slash command: finds the argument being typed at
   * the end of `line` (`/poem-writer --mood=rev`, or positionally `/poem-writer "Gemini CLI" r`)
   * and asks the prompt's server for values. Undefined when the line is not a prompt command or
   * no argument is being typed (see `valueStart` to replace the typed value with a suggestion).
   *
   * @throws HostError `SERVER_NOT_CONNECTED` when the prompt's server is not connected.
   */
  async complete(params: { readonly line: string }, options: RequestOptions = {}): Promise<SlashCommandCompletion | undefined> {
    this.#core.assertOpen();
    const name = /^\s*\/(\S+)/.exec(params.line)?.[1];
    const command = promptCommands(this.#core.manager).find((prompt) => prompt.name === name);
    if (!command) return undefined;
    const position = findArgumentPosition({ line: params.line, commandName: command.name, arguments: command.arguments });
    if (!position) return undefined;
    const suggestions = await this.#prompts.complete(
      { name: command.name, argument: position.argument, value: position.value, context: position.context },
      options,
    );
    return { ...position, ...suggestions };
  }
}
