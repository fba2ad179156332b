// The A2A wire shapes the page reads and writes (A2A v0.3 JSON-RPC, `kind`-tagged), and the
// development-tool extension of seed 003 inside them. Everything here is pure: no DOM, no fetch,
// so the node tests exercise it directly. Values from the server are `unknown` until checked.

/**
 * How the page recognises the extension's URI in an agent card: the RFC's own URI names
 * `developer-profile` (`…/docs/a2a/developer-profile/v0/spec.md`), others `development-tool`.
 */
export const DEVELOPMENT_TOOL_EXTENSION = /development-tool|developer-profile/;

/**
 * The extension version this page implements: the RFC's `v0`. An agent's version is accepted by
 * semver 2.0.0 rules ({@link isCompatible}): `v0` or any `0.x`; not `v1`.
 */
export const SUPPORTED_EXTENSION_VERSION = '0';

/** The ToolCall statuses of the lifecycle, in the RFC's spelling. */
export const TOOL_CALL_STATUSES = ['PENDING', 'EXECUTING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;

/** One ToolCall status. */
export type ToolCallStatus = (typeof TOOL_CALL_STATUSES)[number];

/** One option of a confirmation request. */
export interface ConfirmationOption {
  /** Sent back as `selected_option_id`. */
  id: string;
  /** Button label. */
  name: string;
  /** Longer text (tooltip). */
  description?: string;
}

/** A ToolCall's confirmation request, as far as the page shows it. */
export interface ConfirmationRequest {
  /** The choices offered. */
  options: ConfirmationOption[];
  /** Lines describing what is to be confirmed (MCP server and tool, command, file, description). */
  details: string[];
}

/** An image to show: a mime type of `image/*` and base64 bytes. */
export interface InlineImage {
  /** `image/png`, `image/jpeg`, … (checked by {@link imageDataUrl}). */
  mimeType: string;
  /** Base64 data. */
  data: string;
}

/** A ToolCall of the development-tool extension, checked and reduced to what the page renders. */
export interface ToolCallView {
  /** Agent-assigned id; the card's key. */
  id: string;
  /** Current lifecycle status. */
  status: ToolCallStatus;
  /** The tool's name. */
  toolName: string;
  /** Optional description of the call. */
  description?: string;
  /** The model's arguments, pretty-printed JSON. */
  inputParameters: string;
  /** Streamed output while EXECUTING (replaced on every update). */
  liveContent?: string;
  /** Final output text (`output.text`, a diff, or structured data as JSON). */
  output?: string;
  /** Error message when FAILED. */
  error?: string;
  /** Present while PENDING and the agent waits for the user. */
  confirmation?: ConfirmationRequest;
  /** Images found in the output's structured data. */
  images: InlineImage[];
}

/** What one A2A part holds, as far as the page is concerned. */
export type PartView =
  | { kind: 'text'; text: string }
  | { kind: 'tool-call'; toolCall: ToolCallView }
  | { kind: 'thought'; subject: string; description: string }
  | { kind: 'image'; image: InlineImage; toolCallId?: string }
  | { kind: 'file'; name: string; mimeType: string; toolCallId?: string }
  | { kind: 'data'; json: string };

/** One status-update (or task, or message) event of a stream, reduced to what the page renders. */
export interface StreamEventView {
  /** `task`, `status-update`, `message` or `artifact-update`. */
  type: string;
  /** Task id, when the event names one. */
  taskId?: string;
  /** Context id, when the event names one. */
  contextId?: string;
  /** Task state (`submitted`, `working`, `input-required`, `completed`, `failed`, …). */
  state?: string;
  /** Whether this is the last event of the stream. */
  final: boolean;
  /** Development-tool event kind from the metadata (`TOOL_CALL_UPDATE`, `TEXT_CONTENT`, …). */
  eventKind?: string;
  /** An error string the agent put in the event metadata. */
  error?: string;
  /** The parts of the event's message (for a Task: of its current status message). */
  parts: PartView[];
  /** For a Task: the parts of the agent's messages in its history, oldest first. */
  history: PartView[];
}

/** A slash command from `commands/get`, flattened: `path` is `['mcp', 'list']` for `/mcp list`. */
export interface CommandView {
  /** Command path, top-level name first. */
  path: string[];
  /** Description shown in the palette. */
  description: string;
  /** Argument names (required ones first as the server lists them). */
  arguments: { name: string; description: string; required: boolean }[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function json(value: unknown): string {
  try {
    return JSON.stringify(value ?? {}, null, 2) ?? '';
  } catch {
    return String(value);
  }
}

/** The extension entry of an agent card: its URI, version and whether this page can speak it. */
export interface ExtensionMatch {
  /** The extension URI; the key of every custom metadata object. */
  uri: string;
  /** The version embedded in the URI (`0`, `1.2.3`, …). */
  version: string;
  /** Whether {@link SUPPORTED_EXTENSION_VERSION} is compatible with it under semver 2.0.0. */
  compatible: boolean;
}

/**
 * Finds the development-tool extension in an agent card's `capabilities.extensions` and checks its
 * embedded version against the one this page implements. Returns undefined when the card does not
 * name the extension.
 */
export function findDevelopmentToolExtension(card: unknown): ExtensionMatch | undefined {
  if (!isRecord(card) || !isRecord(card['capabilities'])) return undefined;
  const extensions = card['capabilities']['extensions'];
  if (!Array.isArray(extensions)) return undefined;
  for (const entry of extensions) {
    const uri = isRecord(entry) ? str(entry['uri']) : undefined;
    if (uri === undefined || !DEVELOPMENT_TOOL_EXTENSION.test(uri)) continue;
    const version = extensionVersion(uri);
    return { uri, version: version ?? '', compatible: version !== undefined && isCompatible(SUPPORTED_EXTENSION_VERSION, version) };
  }
  return undefined;
}

/** The version embedded in an extension URI's path: the last segment like `v0`, `v1.2`, `1.2.3` (`…/v0/spec.md` → `0`). */
export function extensionVersion(uri: string): string | undefined {
  let path: string;
  try {
    path = new URL(uri).pathname;
  } catch {
    path = uri.split(/[?#]/)[0] ?? '';
  }
  const versions = path
    .split('/')
    .map((segment) => /^v?(\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?)$/.exec(segment)?.[1])
    .filter((version): version is string => version !== undefined);
  return versions.at(-1);
}

interface SemVer {
  major: number;
  /** Undefined when the version names only its major (`v0`): any minor of that major. */
  minor: number | undefined;
  patch: number;
  pre: string;
}

function parseVersion(version: string): SemVer | undefined {
  const match = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?$/.exec(version);
  if (!match) return undefined;
  return {
    major: Number(match[1]),
    minor: match[2] === undefined ? undefined : Number(match[2]),
    patch: Number(match[3] ?? 0),
    pre: match[4] ?? '',
  };
}

/**
 * Semver 2.0.0 compatibility of a client built for `mine` with an agent offering `theirs`: the same
 * major version; in major 0 (where anything may change) also the same minor version, unless one
 * side names only its major (`v0`, as in the RFC's URI); pre-releases only when equal.
 */
export function isCompatible(mine: string, theirs: string): boolean {
  const a = parseVersion(mine);
  const b = parseVersion(theirs);
  if (!a || !b) return false;
  if (a.pre !== '' || b.pre !== '') return a.major === b.major && a.minor === b.minor && a.patch === b.patch && a.pre === b.pre;
  if (a.major !== b.major) return false;
  return a.major !== 0 || a.minor === undefined || b.minor === undefined || a.minor === b.minor;
}

const IMAGE_MIME = /^image\/(png|jpeg|gif|webp|bmp|avif|x-icon|vnd\.microsoft\.icon)$/i;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * A `data:` URL for an image, or undefined when the mime type is not a raster image type or the
 * data is not plain base64. The page never builds any other URL from server data.
 */
export function imageDataUrl(image: InlineImage): string | undefined {
  const data = image.data.replace(/\s+/g, '');
  if (!IMAGE_MIME.test(image.mimeType) || data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) return undefined;
  return `data:${image.mimeType.toLowerCase()};base64,${data}`;
}

/** Inline images inside structured data: objects with a mime type of `image/*` and base64 `data`/`bytes`. */
export function findImages(value: unknown, depth = 0): InlineImage[] {
  if (depth > 8) return [];
  if (Array.isArray(value)) return value.flatMap((item) => findImages(item, depth + 1));
  if (!isRecord(value)) return [];
  const mimeType = str(value['mimeType']) ?? str(value['mime_type']) ?? str(value['mediaType']) ?? str(value['media_type']);
  const data = str(value['data']) ?? str(value['bytes']);
  if (mimeType !== undefined && data !== undefined && mimeType.toLowerCase().startsWith('image/')) return [{ mimeType, data }];
  return Object.values(value).flatMap((item) => findImages(item, depth + 1));
}

function confirmationFrom(value: unknown): ConfirmationRequest | undefined {
  if (!isRecord(value) || !Array.isArray(value['options'])) return undefined;
  const options: ConfirmationOption[] = [];
  for (const option of value['options']) {
    if (!isRecord(option)) continue;
    const id = str(option['id']);
    if (id === undefined) continue;
    const description = str(option['description']);
    options.push({ id, name: str(option['name']) ?? id, ...(description !== undefined ? { description } : {}) });
  }
  const details: string[] = [];
  const mcp = value['mcp_details'];
  if (isRecord(mcp)) details.push(`MCP server: ${str(mcp['server_name']) ?? '?'}`, `Tool: ${str(mcp['tool_name']) ?? '?'}`);
  const exec = value['execute_details'];
  if (isRecord(exec)) {
    details.push(`Command: ${str(exec['command']) ?? ''}`);
    const cwd = str(exec['working_directory']);
    if (cwd !== undefined) details.push(`In: ${cwd}`);
  }
  const edit = value['file_edit_details'];
  if (isRecord(edit)) {
    details.push(`File: ${str(edit['file_path']) ?? str(edit['file_name']) ?? ''}`);
    const diff = str(edit['formatted_diff']);
    if (diff !== undefined) details.push(diff);
  }
  const generic = value['generic_details'];
  if (isRecord(generic)) details.push(str(generic['description']) ?? '');
  return { options, details };
}

/** Checks a DataPart's data as a ToolCall; undefined when it is not one. */
export function toolCallFrom(data: unknown): ToolCallView | undefined {
  if (!isRecord(data)) return undefined;
  const id = str(data['tool_call_id']);
  const status = str(data['status'])?.toUpperCase();
  if (id === undefined || status === undefined || !(TOOL_CALL_STATUSES as readonly string[]).includes(status)) return undefined;
  const view: ToolCallView = {
    id,
    status: status as ToolCallStatus,
    toolName: str(data['tool_name']) ?? '(unnamed tool)',
    inputParameters: json(data['input_parameters']),
    images: [],
  };
  const description = str(data['description']);
  if (description !== undefined) view.description = description;
  const live = str(data['live_content']);
  if (live !== undefined) view.liveContent = live;
  const output = data['output'];
  if (isRecord(output)) {
    const text = str(output['text']);
    if (text !== undefined) view.output = text;
    else if (isRecord(output['diff']))
      view.output = str(output['diff']['formatted_diff']) ?? str(output['diff']['new_content']) ?? json(output['diff']);
    else if (output['structured_data'] !== undefined) view.output = json(output['structured_data']);
    view.images = findImages(output['structured_data'] ?? output);
  } else if (typeof output === 'string') {
    view.output = output;
  }
  const error = data['error'];
  if (isRecord(error)) view.error = str(error['message']) ?? json(error);
  else if (typeof error === 'string') view.error = error;
  const confirmation = confirmationFrom(data['confirmation_request']);
  if (confirmation !== undefined) view.confirmation = confirmation;
  return view;
}

/**
 * An A2A part (v0.3 `kind`-tagged, or the v1.0 shape without `kind`) as a {@link PartView}.
 * Custom objects may be keyed by the extension URI; `extensionUri` unwraps them.
 */
export function partFrom(part: unknown, extensionUri?: string): PartView | undefined {
  if (!isRecord(part)) return undefined;
  const kind = str(part['kind']);
  const text = str(part['text']);
  if (kind === 'text' || (kind === undefined && text !== undefined)) return { kind: 'text', text: text ?? '' };
  if (kind === 'file' || (kind === undefined && (isRecord(part['file']) || part['raw'] !== undefined))) {
    const file = isRecord(part['file']) ? part['file'] : part;
    const mimeType = str(file['mimeType']) ?? str(file['mediaType']) ?? str(part['mediaType']) ?? 'application/octet-stream';
    const bytes = str(file['bytes']) ?? str(file['raw']);
    // The agent names the tool call a file belongs to in the part's metadata.
    const meta = isRecord(part['metadata']) ? part['metadata'] : {};
    const inner = extensionUri !== undefined && isRecord(meta[extensionUri]) ? meta[extensionUri] : meta;
    const toolCallId = str(inner['tool_call_id']);
    const owner = toolCallId !== undefined ? { toolCallId } : {};
    if (bytes !== undefined && mimeType.toLowerCase().startsWith('image/'))
      return { kind: 'image', image: { mimeType, data: bytes }, ...owner };
    return { kind: 'file', name: str(file['name']) ?? str(file['filename']) ?? str(file['uri']) ?? 'file', mimeType, ...owner };
  }
  let data: unknown = kind === 'data' ? part['data'] : isRecord(part['data']) && kind === undefined ? part['data'] : undefined;
  if (data === undefined) return undefined;
  if (isRecord(data) && extensionUri !== undefined && isRecord(data[extensionUri])) data = data[extensionUri];
  // v1.0 JSON wraps a DataPart's value as {data: {data: …}}.
  if (kind === undefined && isRecord(data) && isRecord(data['data']) && Object.keys(data).length === 1) data = data['data'];
  const toolCall = toolCallFrom(data);
  if (toolCall !== undefined) return { kind: 'tool-call', toolCall };
  if (isRecord(data) && typeof data['subject'] === 'string' && typeof data['description'] === 'string') {
    return { kind: 'thought', subject: data['subject'], description: data['description'] };
  }
  const images = findImages(data);
  if (images.length > 0 && images[0] !== undefined) return { kind: 'image', image: images[0] };
  return { kind: 'data', json: json(data) };
}

function partsOf(message: unknown, extensionUri?: string): PartView[] {
  if (!isRecord(message) || !Array.isArray(message['parts'])) return [];
  return message['parts'].map((part) => partFrom(part, extensionUri)).filter((part): part is PartView => part !== undefined);
}

function stateOf(status: unknown): string | undefined {
  if (!isRecord(status)) return undefined;
  const state = str(status['state']);
  // v1.0 spells TASK_STATE_INPUT_REQUIRED; the page uses v0.3's input-required.
  return state
    ?.replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

function metadataOf(metadata: unknown, extensionUri?: string): { eventKind?: string; error?: string } {
  if (!isRecord(metadata)) return {};
  const inner = extensionUri !== undefined && isRecord(metadata[extensionUri]) ? metadata[extensionUri] : metadata;
  const eventKind = str(inner['kind']) ?? str(metadata['kind']);
  const error = str(inner['error']) ?? str(metadata['error']);
  return { ...(eventKind !== undefined ? { eventKind } : {}), ...(error !== undefined ? { error } : {}) };
}

/** One streamed JSON-RPC `result` (a Task, TaskStatusUpdateEvent, Message or artifact update) as a {@link StreamEventView}. */
export function streamEventFrom(result: unknown, extensionUri?: string): StreamEventView | undefined {
  if (!isRecord(result)) return undefined;
  let event: Record<string, unknown> = result;
  let type = str(result['kind']);
  if (type === undefined) {
    // v1.0 StreamResponse: {task}, {statusUpdate}, {message}, {artifactUpdate}.
    const wrapped = (['task', 'statusUpdate', 'message', 'artifactUpdate'] as const).find((key) => isRecord(result[key]));
    if (wrapped === undefined) return undefined;
    event = result[wrapped] as Record<string, unknown>;
    type = { task: 'task', statusUpdate: 'status-update', message: 'message', artifactUpdate: 'artifact-update' }[wrapped];
  }
  const view: StreamEventView = { type, final: event['final'] === true, parts: [], history: [] };
  const taskId = type === 'task' ? str(event['id']) : str(event['taskId']);
  const contextId = str(event['contextId']);
  if (taskId !== undefined) view.taskId = taskId;
  if (contextId !== undefined) view.contextId = contextId;
  const state = stateOf(event['status']);
  if (state !== undefined) view.state = state;
  Object.assign(view, metadataOf(event['metadata'], extensionUri));
  if (type === 'message') view.parts = partsOf(event, extensionUri);
  else if (type === 'artifact-update') view.parts = partsOf(event['artifact'], extensionUri);
  else if (isRecord(event['status'])) view.parts = partsOf(event['status']['message'], extensionUri);
  if (type === 'task' && Array.isArray(event['history'])) {
    // The status message may be in the history too: keep it once, as the status.
    const current =
      isRecord(event['status']) && isRecord(event['status']['message']) ? str(event['status']['message']['messageId']) : undefined;
    const agentTurns = event['history'].filter(
      (message) =>
        isRecord(message) &&
        /^(agent|ROLE_AGENT)$/.test(str(message['role']) ?? '') &&
        (current === undefined || str(message['messageId']) !== current),
    );
    view.history = agentTurns.flatMap((message) => partsOf(message, extensionUri));
  }
  return view;
}

/** The commands of a `commands/get` answer, flattened with their sub-commands (`/mcp`, `/mcp list`, …). */
export function commandsFrom(result: unknown): CommandView[] {
  const out: CommandView[] = [];
  const visit = (command: unknown, prefix: string[], depth: number): void => {
    if (!isRecord(command) || depth > 4) return;
    const name = str(command['name'])?.replace(/^\//, '');
    if (name === undefined || name === '') return;
    const path = [...prefix, name];
    const args = Array.isArray(command['arguments']) ? command['arguments'] : [];
    out.push({
      path,
      description: str(command['description']) ?? '',
      arguments: args.filter(isRecord).map((arg) => ({
        name: str(arg['name']) ?? '',
        description: str(arg['description']) ?? '',
        required: arg['is_required'] === true,
      })),
    });
    const subs = command['sub_commands'] ?? command['subCommands'];
    if (Array.isArray(subs)) for (const sub of subs) visit(sub, path, depth + 1);
  };
  const list = isRecord(result) ? result['commands'] : result;
  if (Array.isArray(list)) for (const command of list) visit(command, [], 0);
  return out;
}

/**
 * Splits a typed `/command sub args` line against the known commands: the longest known path
 * that the line starts with, and the rest as the argument string. Undefined when nothing matches.
 */
export function matchCommand(line: string, commands: readonly CommandView[]): { path: string[]; args: string } | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('/')) return undefined;
  const words = trimmed.slice(1).split(/\s+/);
  let best: string[] | undefined;
  for (const command of commands) {
    if (command.path.length > words.length) continue;
    if (!command.path.every((segment, i) => words[i] === segment)) continue;
    if (best === undefined || command.path.length > best.length) best = command.path;
  }
  if (best === undefined) return undefined;
  let rest = trimmed.slice(1);
  for (const segment of best) rest = rest.trimStart().slice(segment.length);
  return { path: best, args: rest.trim() };
}

/** One Server-Sent Event: the `event` name (`message` by default) and its joined `data` lines. */
export interface SseEvent {
  /** Event type; the A2A SDK names JSON-RPC errors `error`. */
  event: string;
  /** Data lines joined with `\n`. */
  data: string;
}

/**
 * Parses a Server-Sent Events byte stream into events, following the WHATWG rules the page needs:
 * `\n`, `\r\n` or `\r` line ends, `data` lines joined, comments and unknown fields ignored, an event
 * dispatched on a blank line. Chunk boundaries may fall anywhere, even inside a multi-byte character.
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  const take = (line: string): SseEvent | undefined => {
    if (line === '') {
      const out = data.length > 0 ? { event: event || 'message', data: data.join('\n') } : undefined;
      event = '';
      data = [];
      return out;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    return undefined;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let match: RegExpExecArray | null;
      const lineEnd = /\r\n|\r|\n/g;
      let start = 0;
      while ((match = lineEnd.exec(buffer)) !== null) {
        // A lone \r at the very end may be the first half of \r\n: wait for the next chunk.
        if (match[0] === '\r' && match.index === buffer.length - 1 && !done) break;
        const out = take(buffer.slice(start, match.index));
        start = match.index + match[0].length;
        if (out) yield out;
      }
      buffer = buffer.slice(start);
      // An event not closed by a blank line before the end of the stream is dropped, as browsers do.
      if (done) return;
    }
  } finally {
    reader.releaseLock();
  }
}
