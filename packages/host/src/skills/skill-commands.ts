import type { RegisteredSkill } from '@toolhost/discovery';
import { skillDescription } from './skill-text.js';

/** A skill (the MCP Skills extension) offered as a slash command and to the model. */
export interface SkillCommand {
  /**
   * The skill's unique name in this host: its slash command without the `/`, and the `name` the
   * `activate_skill` tool takes. The skill's own name when no built-in command, prompt command or
   * earlier server's skill has it, else `serverName.skillName` (then `serverName.skillName2`, ...).
   */
  readonly name: string;
  /** The server that offers it. */
  readonly serverName: string;
  /** The skill's own name (`frontmatter.name`). */
  readonly skillName: string;
  /** The URI of its `SKILL.md`. */
  readonly uri: string;
  /**
   * What it does (`frontmatter.description`): tag characters removed, control, BiDi and zero-width
   * characters written as `\uXXXX` escapes, so it can be shown and given to the model.
   */
  readonly description: string;
  /** The registry entry behind it. */
  readonly entry: RegisteredSkill;
}

/**
 * The skills as commands, in registry order (servers in settings order): each keeps its own name
 * when it is free, so the first server to list a name keeps it, as with tools and prompts;
 * built-in commands and prompt commands always keep theirs. A taken name becomes
 * `serverName.skillName` (whitespace in the server name written as `-`), with a counter when
 * that is taken too.
 */
export function buildSkillCommands(skills: readonly RegisteredSkill[], taken: Iterable<string>): SkillCommand[] {
  const used = new Set(taken);
  return skills.map((entry) => {
    let name = entry.name;
    if (used.has(name)) {
      const base = `${entry.serverName.trim().replace(/\s+/g, '-')}.${entry.name}`;
      name = base;
      for (let counter = 2; used.has(name); counter++) name = `${base}${counter}`;
    }
    used.add(name);
    return {
      name,
      serverName: entry.serverName,
      skillName: entry.name,
      uri: entry.uri,
      description: skillDescription(entry.skill.frontmatter.description),
      entry,
    };
  });
}
