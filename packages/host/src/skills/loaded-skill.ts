import type { ContentPart } from '@toolhost/contract';
import type { SkillFileInfo } from './skill-text.js';

/** A skill loaded and verified: its instructions for the model, and the rest of it. */
export interface LoadedSkill {
  /** Its unique name in this host (slash command, `activate_skill` name). */
  readonly name: string;
  /** The server it came from. */
  readonly serverName: string;
  /** The skill's own name. */
  readonly skillName: string;
  /** The URI of its `SKILL.md`. */
  readonly uri: string;
  /** What it does (made safe to show, as in {@link HostSkill}). */
  readonly description: string;
  /** The `SKILL.md` frontmatter, parsed and equal to the entry's, field by field. */
  readonly frontmatter: Readonly<Record<string, unknown>>;
  /** The `SKILL.md` body (the markdown after the frontmatter) exactly as the server sent it. */
  readonly body: string;
  /**
   * Whether size and digest were checked: `false` only for a `"dynamic"` skill, which lists no
   * digests (its frontmatter is checked all the same).
   */
  readonly verified: boolean;
  /** Its other files (path relative to the skill's folder, and listed size); `'dynamic'` when the server does not list them. */
  readonly files: readonly SkillFileInfo[] | 'dynamic';
  /**
   * The skill for the model, in Gemini CLI's format: `<activated_skill name="...">` with the
   * instructions (the body, control characters escaped, capped at `maxLength`) and the list of
   * its other files.
   */
  readonly text: string;
  /** {@link LoadedSkill.text} as model-neutral parts. */
  readonly parts: ContentPart[];
}

/** One file of a skill, read and verified (`host.skills.readFile()`). */
export interface LoadedSkillFile {
  /** The skill's unique name. */
  readonly name: string;
  /** The server it came from. */
  readonly serverName: string;
  /** The path asked for, relative to the skill's folder. */
  readonly path: string;
  /** The file's URI. */
  readonly uri: string;
  /** Its MIME type, when the server gave one. */
  readonly mimeType?: string;
  /** Its size in bytes. */
  readonly size: number;
  /** Whether size and digest were checked (`false` for a `"dynamic"` skill). */
  readonly verified: boolean;
  /** Its text exactly as sent, when the server sent text (or the bytes are UTF-8). */
  readonly text?: string;
  /**
   * The file for the model: text as a text part (control characters escaped, capped at
   * `maxLength`); an image or audio file as inline data (when its base64 fits `maxLength`); any
   * other binary file as a note.
   */
  readonly parts: ContentPart[];
}
