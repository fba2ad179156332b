import type { Client } from '@modelcontextprotocol/client';
import { SkillsClient, type Skill, type SkillFile } from '@modelcontextprotocol/client/ext/skills';

/** The identifier of the MCP Skills extension (`io.modelcontextprotocol/skills`), to declare in `capabilities.extensions`. */
export { SKILLS_EXTENSION_ID } from '@modelcontextprotocol/client/ext/skills';

/** Options of {@link readSkillFile}. */
export interface ReadSkillFileOptions {
  /** Timeout of each request, in milliseconds. */
  readonly timeout: number;
  /** Aborts the read. */
  readonly signal?: AbortSignal;
}

/**
 * Read one file of a skill (its `SKILL.md` without `path`) and verify it against the skill's
 * entry (size, SHA-256 digest, frontmatter field by field), as the SDK's `SkillsClient` does.
 *
 * @throws the SDK's errors; a failed verification is recognised by `skillVerificationFailure`.
 */
export function readSkillFile(client: Client, skill: Skill, path: string | undefined, options: ReadSkillFileOptions): Promise<SkillFile> {
  return new SkillsClient(client).read(skill, path, options);
}
