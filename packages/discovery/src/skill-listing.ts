import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { Client, RequestOptions } from '@modelcontextprotocol/client';
import { SKILL_LIMITS, SKILLS_EXTENSION_ID, SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';

/** The most skills kept from one server; the rest are left out (see {@link ExcludedSkill}). */
export const MAX_SKILLS_PER_SERVER = 256;

/** Largest `frontmatter` of one skill entry kept, in bytes of its JSON; a larger entry is left out. */
export const MAX_SKILL_FRONTMATTER_BYTES = 16_384;

/** A skill a server listed that discovery left out, and why. */
export interface ExcludedSkill {
  /** The entry's `SKILL.md` URI, when it had one (as the server sent it: escape before showing it). */
  readonly uri?: string;
  /** The skill's name, when the entry had one (as the server sent it: escape before showing it). */
  readonly name?: string;
  /** Why it was left out (may quote server-sent text: escape before showing it). */
  readonly reason: string;
}

/** What {@link listServerSkills} found. */
export interface SkillListingResult {
  /** The skills kept, in the server's order. */
  readonly skills: Skill[];
  /** The entries left out, and why. */
  readonly excluded: ExcludedSkill[];
  /** The `ttlMs` of the first page (MCP 2026-07-28), when the server sent one. */
  readonly ttlMs?: number;
}

/** True when the server declared the Skills extension (`capabilities.extensions["io.modelcontextprotocol/skills"]`). */
export function declaresSkills(client: Client): boolean {
  const declared = client.getServerCapabilities()?.extensions?.[SKILLS_EXTENSION_ID];
  return typeof declared === 'object' && declared !== null && !Array.isArray(declared);
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).byteLength;
}

/** Why a valid entry is still too big to keep, or undefined. */
function oversized(skill: Skill): string | undefined {
  const frontmatterBytes = byteLength(JSON.stringify(skill.frontmatter));
  if (frontmatterBytes > MAX_SKILL_FRONTMATTER_BYTES) {
    return `its frontmatter is ${frontmatterBytes} bytes, more than the ${MAX_SKILL_FRONTMATTER_BYTES} bytes toolhost keeps per skill`;
  }
  if (skill.resources === 'dynamic') return undefined;
  if (skill.resources.length > SKILL_LIMITS.files) {
    return `it lists ${skill.resources.length} files, more than the ${SKILL_LIMITS.files} of the Skills extension's limits`;
  }
  const total = skill.resources.reduce((sum, file) => sum + file.size, 0);
  if (total > SKILL_LIMITS.bytes) {
    return `its files add up to ${total} bytes, more than the ${SKILL_LIMITS.bytes} bytes of the Skills extension's limits`;
  }
  return undefined;
}

/**
 * Lists the skills of a server that declared the Skills extension (SEP-2640), every page, with the
 * SDK's `SkillsClient`: metadata only, no skill file is read. Entries the SDK refuses (a name that
 * breaks the Agent Skills naming rules, a bad digest, a file outside the skill...) are left out
 * with the reason, as are entries over toolhost's bounds: more than {@link MAX_SKILLS_PER_SERVER}
 * skills, a frontmatter over {@link MAX_SKILL_FRONTMATTER_BYTES}, or a skill over the extension's
 * per-skill limits (`SKILL_LIMITS`: 512 files, 16 MiB). A server without the extension has none.
 * Rejects when `skills/list` fails (see {@link skillListingFailure}).
 */
export async function listServerSkills(client: Client, request: RequestOptions): Promise<SkillListingResult> {
  if (!declaresSkills(client)) return { skills: [], excluded: [] };
  const listing = await new SkillsClient(client, { skipInvalid: true }).list({}, request);
  const skills: Skill[] = [];
  const excluded: ExcludedSkill[] = listing.invalid.map((entry) => ({
    ...(entry.uri !== undefined ? { uri: entry.uri } : {}),
    reason: `invalid skill entry: ${entry.reason}`,
  }));
  for (const skill of listing.skills) {
    const described = { uri: skill.uri, name: skill.frontmatter.name };
    const tooBig = oversized(skill);
    if (tooBig !== undefined) excluded.push({ ...described, reason: `left out because ${tooBig}` });
    else if (skills.length >= MAX_SKILLS_PER_SERVER)
      excluded.push({ ...described, reason: `left out because the server lists more than ${MAX_SKILLS_PER_SERVER} skills` });
    else skills.push(skill);
  }
  return { skills, excluded, ...(listing.ttlMs !== undefined ? { ttlMs: listing.ttlMs } : {}) };
}

/**
 * What a server offers when `skills/list` failed: no skills, and the failure as the one excluded
 * entry. A skills failure never disconnects the server: its tools, prompts and resources stay.
 */
export function skillListingFailure(error: unknown): SkillListingResult {
  const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
  const detail = error instanceof Error ? error.message : String(error);
  return {
    skills: [],
    excluded: [{ reason: `skills/list ${timedOut ? 'timed out' : 'failed'}, so none of the server's skills are offered: ${detail}` }],
  };
}
