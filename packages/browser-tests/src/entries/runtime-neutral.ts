// Bundled for the browser by runtime-neutral.browser.test.ts and run in Chromium: it calls real
// functions of the packages that need no Node APIs and returns what they gave, for the test to check.
import {
  ConfirmationError,
  ConfirmationPolicy,
  hashToolDefinition,
  validateToolArguments,
  type ToolCallSubject,
} from '@toolhost/confirmation';
import { mapCallToolResult } from '@toolhost/content-mapper';
import { AdapterError, ERROR_CODES, ToolhostError, escapeControlText, findErrorInChain, isErrorCode } from '@toolhost/contract';
import { generateValidName, sanitizeSchema, type SchemaProfile } from '@toolhost/schema-sanitizer';

/** What {@link run} observed, as plain JSON. */
export interface BrowserRunResult {
  /** The runtime it ran in (`navigator.userAgent`). */
  readonly userAgent: string;
  readonly schema: {
    readonly gemini: unknown;
    readonly openaiStrict: unknown;
    readonly dropped: readonly string[];
    readonly toolName: string;
  };
  readonly content: {
    readonly llmParts: unknown;
    readonly display: string;
    readonly isError: boolean;
  };
  readonly confirmation: {
    readonly firstStatus: string;
    readonly requestTitle: string | undefined;
    readonly decision: { readonly allowed: boolean; readonly outcome: string };
    readonly secondStatus: string;
    readonly secondReason: string | undefined;
    readonly changedStatus: string;
    readonly declined: { readonly allowed: boolean; readonly code: string | undefined; readonly isToolhostError: boolean };
    readonly hash: string;
    /** Argument validation (Ajv, imported with the package outside Node) with a catastrophic pattern. */
    readonly validation: { readonly valid: boolean; readonly code: string | undefined; readonly accepted: boolean };
  };
  readonly contract: {
    readonly isToolhostError: boolean;
    readonly isAdapterError: boolean;
    readonly foundInChain: string | undefined;
    readonly knownCode: boolean;
    readonly unknownCode: boolean;
    readonly escaped: string;
  };
}

const PNG_BYTES = 'iVBORw0KGgo=';

/** Runs every check; see {@link BrowserRunResult}. */
export async function run(): Promise<BrowserRunResult> {
  // schema-sanitizer: a schema with keywords Gemini and OpenAI strict mode refuse.
  const input = {
    type: 'object',
    $schema: 'http://json-schema.org/draft-07/schema#',
    properties: {
      city: { type: 'string', format: 'hostname', minLength: 1 },
      when: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    },
    required: ['city'],
    additionalProperties: false,
  };
  const dropped: string[] = [];
  const gemini = sanitizeSchema(input, { profile: 'gemini', onDrop: (drop) => dropped.push(drop.keyword) });
  const openaiStrict = sanitizeSchema(input, { profile: 'openai-strict' satisfies SchemaProfile });

  // content-mapper: a CallToolResult with text and an image.
  const mapped = mapCallToolResult(
    {
      content: [
        { type: 'text', text: 'Here is the logo.' },
        { type: 'image', data: PNG_BYTES, mimeType: 'image/png' },
      ],
    },
    { toolName: 'logo' },
  );

  // confirmation core: ask, answer "always allow this tool", then the pinned approval allows the
  // same definition without asking and asks again for a changed one.
  const policy = new ConfirmationPolicy();
  const tool = { name: 'delete_file', description: 'Deletes a file.', inputSchema: { type: 'object' } };
  const subject = (definition: typeof tool, toolCallId: string): ToolCallSubject => ({
    toolCallId,
    serverName: 'files',
    registeredName: 'delete_file',
    tool: definition,
    arguments: { path: '/tmp/a' },
  });
  const first = await policy.authorize(subject(tool, 'call-1'));
  if (first.status !== 'ask') throw new Error(`expected the first call to ask, got ${first.status}`);
  const decision = await first.answer('proceed_always_tool');
  const second = await policy.authorize(subject(tool, 'call-2'));
  const changed = await policy.authorize(subject({ ...tool, description: 'Deletes every file.' }, 'call-3'));
  const other = await new ConfirmationPolicy().authorize(subject(tool, 'call-4'));
  if (other.status !== 'ask') throw new Error(`expected a fresh policy to ask, got ${other.status}`);
  const refused = await other.answer('cancel');
  const inputSchema = {
    type: 'object',
    properties: { path: { type: 'string', pattern: '^(a+)+$' }, mode: { enum: ['read', 'write'] } },
    required: ['path'],
  };
  const invalid = validateToolArguments({ serverName: 'files', toolName: 'read', inputSchema, arguments: { path: 'aaa', mode: 'x' } });
  const valid = validateToolArguments({ serverName: 'files', toolName: 'read', inputSchema, arguments: { path: 'aaa', mode: 'read' } });

  // contract: the error family and helpers.
  const adapterError = new AdapterError({
    code: 'INVALID_TOOL_CALL',
    provider: 'gemini',
    message: 'The model called a tool with no name.',
  });
  const wrapped = new Error('outer', { cause: adapterError });

  return {
    userAgent: (globalThis as { navigator?: { userAgent: string } }).navigator?.userAgent ?? 'unknown',
    schema: { gemini, openaiStrict, dropped, toolName: generateValidName('mcp_my server/tool?') },
    content: { llmParts: mapped.llmParts, display: mapped.display, isError: mapped.isError },
    confirmation: {
      firstStatus: first.status,
      requestTitle: first.request.title,
      decision: { allowed: decision.allowed, outcome: decision.outcome },
      secondStatus: second.status,
      secondReason: second.status === 'allowed' ? second.reason : undefined,
      changedStatus: changed.status,
      declined: {
        allowed: refused.allowed,
        code: refused.allowed ? undefined : refused.error.code,
        isToolhostError: !refused.allowed && ToolhostError.isInstance(refused.error) && ConfirmationError.isInstance(refused.error),
      },
      hash: await hashToolDefinition(tool),
      validation: { valid: invalid.valid, code: invalid.valid ? undefined : invalid.error.code, accepted: valid.valid },
    },
    contract: {
      isToolhostError: ToolhostError.isInstance(adapterError),
      isAdapterError: AdapterError.isInstance(adapterError),
      foundInChain: findErrorInChain(wrapped, (value): value is AdapterError => AdapterError.isInstance(value))?.code,
      knownCode: isErrorCode(Object.keys(ERROR_CODES)[0]),
      unknownCode: isErrorCode('NOT_A_TOOLHOST_CODE'),
      escaped: escapeControlText('a\u001b[31mred'),
    },
  };
}
