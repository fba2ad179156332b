import { escapeControlText, stripTagCharacters } from '@toolhost/contract';

/** Name of the host tool through which the model loads a skill (as in Gemini CLI). */
export const ACTIVATE_SKILL_TOOL_NAME = 'activate_skill';

/** Default cap of the text of one skill file given to the model, in characters (as `read_mcp_resource`). */
export const DEFAULT_SKILL_MAX_LENGTH = 500_000;

/** Longest skill description shown or given to the model, in characters (the Agent Skills limit). */
const MAX_DESCRIPTION_LENGTH = 1024;

/** A skill's description as shown and given to the model: tag characters removed, control characters escaped, one line. */
export function skillDescription(description: string): string {
  return escapeControlText(stripTagCharacters(description), { maxLength: MAX_DESCRIPTION_LENGTH });
}

/** Text for an XML element or attribute of the prompts below. */
export function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Server text given to the model as a block (a skill's instructions, a text file of a skill): line
 * endings made `\n`, tag characters removed, other control, BiDi and zero-width characters
 * written as `\uXXXX` (line feeds and tabs kept), and cut at `maxLength` characters with a
 * visible marker.
 */
export function modelBlockText(text: string, maxLength: number): string {
  const clean = escapeControlText(stripTagCharacters(text.replace(/\r\n?/g, '\n')), { multiline: true });
  if (clean.length <= maxLength) return clean;
  return `${clean.slice(0, maxLength)}… [skill text truncated by toolhost: ${clean.length - maxLength} characters left out]`;
}

/** One skill in the `<available_skills>` listing. */
export interface AvailableSkill {
  /** The unique name (slash command, `activate_skill` name). */
  readonly name: string;
  /** The server that offers it. */
  readonly serverName: string;
  /** Its `SKILL.md` URI. */
  readonly uri: string;
  /** Its description, already made safe ({@link skillDescription}). */
  readonly description: string;
}

/**
 * The system-prompt section that tells the model which skills exist, in Gemini CLI's format
 * (`# Available Agent Skills`, then `<available_skills>` with each skill's name, description and
 * location); empty when there are none.
 */
export function formatAvailableSkills(skills: readonly AvailableSkill[], activateTool: boolean): string {
  if (skills.length === 0) return '';
  const entries = skills.map(
    (skill) =>
      `  <skill>\n    <name>${xmlText(skill.name)}</name>\n    <description>${xmlText(skill.description)}</description>\n    <location>${xmlText(`${skill.serverName}: ${skill.uri}`)}</location>\n  </skill>`,
  );
  const how = activateTool
    ? `You have access to the following specialized skills. To activate a skill and receive its detailed instructions, call the \`${ACTIVATE_SKILL_TOOL_NAME}\` tool with the skill's name.`
    : 'The following specialized skills are available from MCP servers. The user loads one with its slash command (`/<name>`); its instructions then follow in the conversation.';
  return `# Available Agent Skills\n\n${how}\n\n<available_skills>\n${entries.join('\n')}\n</available_skills>`;
}

/** A file of a skill other than its `SKILL.md`. */
export interface SkillFileInfo {
  /** Its path relative to the skill's folder (`references/FORMS.md`). */
  readonly path: string;
  /** Its size in bytes, as the entry lists it. */
  readonly size: number;
}

/**
 * A loaded skill as the model gets it, in Gemini CLI's format: `<activated_skill name="...">`
 * with the instructions (the `SKILL.md` body) and the skill's other files.
 */
export function formatActivatedSkill(options: {
  readonly name: string;
  readonly serverName: string;
  readonly instructions: string;
  readonly files: readonly SkillFileInfo[] | 'dynamic';
  readonly activateTool: boolean;
}): string {
  const { name, files } = options;
  const listing =
    files === 'dynamic'
      ? ['The server does not list this skill\'s files ("dynamic" skill).']
      : files.length === 0
        ? ['This skill has no other files.']
        : files.map((file) => `- ${xmlText(escapeControlText(file.path, { maxLength: 500 }))} (${file.size} bytes)`);
  if (options.activateTool && (files === 'dynamic' || files.length > 0)) {
    listing.push(`Read a file with the \`${ACTIVATE_SKILL_TOOL_NAME}\` tool: {"name": "${xmlText(name)}", "path": "<file path>"}.`);
  }
  return [
    `<activated_skill name="${xmlText(name)}" server="${xmlText(escapeControlText(options.serverName, { maxLength: 200 }))}">`,
    '  <instructions>',
    options.instructions,
    '  </instructions>',
    '',
    '  <available_resources>',
    ...listing.map((line) => `    ${line}`),
    '  </available_resources>',
    '</activated_skill>',
  ].join('\n');
}
