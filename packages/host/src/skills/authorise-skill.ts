import type { Skill } from '@toolhost/connection';
import { ConfirmationError, type Authorization, type ToolCallSubject, type ToolDefinition } from '@toolhost/confirmation';
import type { ConfirmationRequest } from '@toolhost/contract';
import { HostError, type HostErrorCode } from '../host-error.js';
import type { ToolCallRuntime } from '../tool-call/tool-call-runtime.js';

/** The prefix of a skill's name in confirmations, allow-lists and approvals (`docs.skill:pdf-processing`). */
export const SKILL_APPROVAL_PREFIX = 'skill:';

/** The skill a load is about. */
export interface SkillLoadSubject {
  /** The server that offers it. */
  readonly serverName: string;
  /** Its unique name in the host (slash command). */
  readonly command: string;
  /** The entry as the server listed it (what an approval is pinned to). */
  readonly entry: Skill;
  /** The server entry's `trust`. */
  readonly trust: boolean;
  /** The server's transport and target, as for its tools. */
  readonly serverIdentity: string;
}

/** How one load is decided. */
export interface SkillLoadDecisionOptions {
  /** Id of the confirmation, should the user be asked (`host.confirmations.answer({ toolCallId })`). */
  readonly toolCallId: string;
  /** Aborts the question. */
  readonly signal?: AbortSignal | undefined;
  /**
   * The user asked for this skill (typed its slash command): that is the consent, so it loads
   * where the user would otherwise be asked, as in Gemini CLI. A host policy `deny` still refuses.
   */
  readonly userInitiated?: boolean | undefined;
}

/**
 * What an approval of a skill is pinned to, in the shape of a tool definition: `skill:<name>`,
 * its description, and the whole entry (URI, frontmatter, every file's digest and size), so an
 * "always allow" stops applying once the skill's content changes.
 */
export function skillApprovalDefinition(entry: Skill): ToolDefinition {
  return {
    name: `${SKILL_APPROVAL_PREFIX}${entry.frontmatter.name}`,
    title: `Skill ${entry.frontmatter.name}`,
    description: entry.frontmatter.description,
    uri: entry.uri,
    frontmatter: entry.frontmatter,
    resources: entry.resources,
  };
}

function subjectOf(subject: SkillLoadSubject, toolCallId: string): ToolCallSubject {
  return {
    toolCallId,
    serverName: subject.serverName,
    registeredName: subject.command,
    tool: skillApprovalDefinition(subject.entry),
    arguments: { uri: subject.entry.uri },
    trust: subject.trust,
    serverIdentity: subject.serverIdentity,
  };
}

function refusal(subject: SkillLoadSubject, code: HostErrorCode, message: string, cause?: unknown): HostError {
  return new HostError({
    code,
    serverName: subject.serverName,
    commandName: subject.command,
    uri: subject.entry.uri,
    message,
    ...(cause !== undefined ? { cause } : {}),
  });
}

function what(subject: SkillLoadSubject): string {
  return `skill "${subject.entry.frontmatter.name}" of MCP server "${subject.serverName}"`;
}

/** A refusal of the confirmation policy as a {@link HostError} about the skill. */
function fromConfirmationError(subject: SkillLoadSubject, error: ConfirmationError): HostError {
  const { serverName } = subject;
  const approvalName = `${SKILL_APPROVAL_PREFIX}${subject.entry.frontmatter.name}`;
  switch (error.code) {
    case 'CONFIRMATION_REQUIRED':
      return refusal(
        subject,
        'CONFIRMATION_REQUIRED',
        `Loading ${what(subject)} needs the user's confirmation, but this host cannot ask (it has no confirm hook); the skill was not loaded. ` +
          `To allow it, set "trust": true on the '${serverName}' entry in mcpServers, add "${serverName}.${approvalName}" (this skill) or "${serverName}" (everything of the server) to the allow-list, or allow it through the host's policy.`,
        error,
      );
    case 'DENIED_BY_POLICY':
      return refusal(
        subject,
        'DENIED_BY_POLICY',
        `The host's policy does not allow loading ${what(subject)}; the skill was not loaded.`,
        error,
      );
    case 'TOOL_CALL_DENIED':
      return refusal(subject, 'TOOL_CALL_DENIED', `The user declined to load ${what(subject)}; the skill was not loaded.`, error);
    default:
      return refusal(
        subject,
        HostError.codes.includes(error.code as HostErrorCode) ? (error.code as HostErrorCode) : 'DENIED_BY_POLICY',
        `Deciding whether ${what(subject)} may be loaded failed: ${error.message}; the skill was not loaded.`,
        error,
      );
  }
}

function policyFailure(subject: SkillLoadSubject, error: unknown): HostError {
  if (ConfirmationError.isInstance(error)) return fromConfirmationError(subject, error);
  return refusal(
    subject,
    'DENIED_BY_POLICY',
    `The host's policy failed while deciding whether ${what(subject)} may be loaded (${error instanceof Error ? error.message : String(error)}); the skill was not loaded.`,
    error,
  );
}

/**
 * Decide whether a skill may be loaded, under the rules of tool calls (the host policy, the
 * server's `trust`, the allow-lists, "always allow" approvals pinned to the skill's entry), and
 * ask the user when they must decide: through the `confirm` hook and `host.confirmations.answer()`
 * with id `toolCallId`, titled `Activate Skill: <name>`. Resolves when it may load; rejects with a
 * {@link HostError} (`CONFIRMATION_REQUIRED`, `DENIED_BY_POLICY`, `TOOL_CALL_DENIED`, `CANCELLED`,
 * `CONFIRMATION_FAILED`, `DUPLICATE_TOOL_CALL_ID`, `INVALID_CONFIRMATION_ANSWER`) when it may not.
 * Reads nothing from the server.
 */
export async function authoriseSkillLoad(
  runtime: ToolCallRuntime,
  subject: SkillLoadSubject,
  options: SkillLoadDecisionOptions,
): Promise<void> {
  let authorization: Authorization;
  try {
    authorization = await runtime.policy.authorize(subjectOf(subject, options.toolCallId));
  } catch (error) {
    throw policyFailure(subject, error);
  }
  if (authorization.status === 'allowed') return;
  if (authorization.status === 'denied') {
    if (options.userInitiated && authorization.error.code === 'CONFIRMATION_REQUIRED') return;
    throw fromConfirmationError(subject, authorization.error);
  }
  if (options.userInitiated) return;
  const { signal } = options;
  const confirm = runtime.ui.confirm;
  if (signal?.aborted || (!confirm && !runtime.deferConfirmations)) throw cancelled(subject);
  if (runtime.confirmations.has(options.toolCallId)) {
    throw refusal(
      subject,
      'DUPLICATE_TOOL_CALL_ID',
      `Loading ${what(subject)} needs confirmation, but another call with id "${options.toolCallId}" is already waiting for one; ids must be unique. The skill was not loaded.`,
    );
  }
  const request: ConfirmationRequest = { ...authorization.request, title: `Activate Skill: ${subject.entry.frontmatter.name}` };
  const hook = confirm ? (hookSignal: AbortSignal) => confirm.call(runtime.ui, request, { signal: hookSignal }) : undefined;
  const settlement = await runtime.confirmations.wait(request, signal, hook);
  if (settlement.kind === 'aborted' || settlement.kind === 'closed' || signal?.aborted) throw cancelled(subject);
  if (settlement.kind === 'hook-failed') {
    const { error } = settlement;
    throw refusal(
      subject,
      'CONFIRMATION_FAILED',
      `Asking the user whether ${what(subject)} may be loaded failed (${error instanceof Error ? error.message : String(error)}); the skill was not loaded.`,
      error,
    );
  }
  let decision;
  try {
    decision = await authorization.answer(settlement.answer);
  } catch (error) {
    throw policyFailure(subject, error);
  }
  if (!decision.allowed) throw fromConfirmationError(subject, decision.error);
}

function cancelled(subject: SkillLoadSubject): HostError {
  return refusal(subject, 'CANCELLED', `Loading ${what(subject)} was cancelled before the user decided; the skill was not loaded.`);
}
