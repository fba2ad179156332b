import type { CallToolResult, Tool } from '@toolhost/connection';
import type { ContentPart } from '@toolhost/contract';
import { HostError } from '../host-error.js';
import { hostTool, type HostProvidedTool } from '../tool-call/host-provided-tool.js';
import type { HostSkills } from './host-skills.js';
import { ACTIVATE_SKILL_TOOL_NAME } from './skill-text.js';

/** The tool's declaration for these skill names. */
function declaration(names: readonly string[]): Tool {
  const available = names.map((name) => `'${name}'`).join(', ');
  return {
    name: ACTIVATE_SKILL_TOOL_NAME,
    description:
      `Activates a specialized agent skill by name (available: ${available}) and returns its instructions wrapped in \`<activated_skill>\` tags: ` +
      "guidance for the current task. Use it when a task matches a skill's description, with a name exactly as listed in `<available_skills>`. " +
      'With `path`, it reads one file that the skill lists in `<available_resources>` instead.',
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', enum: [...names], description: 'The name of the skill to activate.' },
        path: {
          type: 'string',
          description:
            "Optional: a file of the skill to read, as listed in the skill's <available_resources> (such as references/FORMS.md).",
        },
      },
      required: ['name'],
    },
    annotations: { title: 'Activate a skill', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  };
}

function toContent(parts: readonly ContentPart[]): CallToolResult['content'] {
  return parts.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    const kind = part.mimeType.startsWith('audio/') ? 'audio' : 'image';
    return { type: kind, data: part.data, mimeType: part.mimeType };
  });
}

/**
 * The host's `activate_skill` tool (Gemini CLI's name and `name` parameter, whose `enum` is the
 * skills' unique names; plus an optional `path` to read one file of the skill). The tool itself
 * runs without a question, and the load it makes is decided per skill by
 * `host.skills.load` / `readFile` (the skill's server, trust, allow-lists, approvals), asking
 * with the call's tool call id when the user must decide. Failures come back as error results
 * the model can read.
 */
export function createActivateSkillTool(names: readonly string[], skills: HostSkills): HostProvidedTool {
  // Trusted like every host tool: it only routes, and each skill it loads is decided (and asked about) on its own.
  return hostTool(declaration(names), async (args, signal, toolCallId) => {
    const name = String(args.name);
    const options = { ...(signal ? { signal } : {}), ...(toolCallId !== undefined ? { toolCallId } : {}) };
    try {
      if (typeof args.path === 'string' && args.path !== '') {
        const file = await skills.readFile({ name, path: args.path }, options);
        return { content: toContent(file.parts) };
      }
      const loaded = await skills.load({ name }, options);
      return { content: toContent(loaded.parts) };
    } catch (error) {
      if (!HostError.isInstance(error)) throw error;
      return { content: [{ type: 'text', text: `Error: ${error.message}` }], isError: true };
    }
  });
}
