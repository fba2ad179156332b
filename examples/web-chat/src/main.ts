// The web chat: an A2A client of a toolhost agent (examples/a2a-agent) on the page's own origin.
// Reads the agent card, sends messages over `message/stream`, renders the development-tool
// extension's events (text, tool-call cards, thoughts, images), asks the user in a dialog when a
// tool needs confirmation, and offers the agent's slash commands in a `/` palette.
import { A2aClient, fetchAgentCard, HttpError } from './a2a-client.js';
import { byId, h, imageElement } from './dom.js';
import {
  commandsFrom,
  findDevelopmentToolExtension,
  matchCommand,
  streamEventFrom,
  SUPPORTED_EXTENSION_VERSION,
  type CommandView,
  type InlineImage,
  type PartView,
  type StreamEventView,
  type ToolCallView,
} from './protocol.js';

const transcript = byId<HTMLOListElement>('transcript');
const agentName = byId<HTMLHeadingElement>('agent-name');
const agentStatus = byId<HTMLParagraphElement>('agent-status');
const connection = byId<HTMLDetailsElement>('connection');
const connectionForm = byId<HTMLFormElement>('connection-form');
const workspaceInput = byId<HTMLInputElement>('workspace');
const tokenInput = byId<HTMLInputElement>('token');
const composer = byId<HTMLFormElement>('composer');
const prompt = byId<HTMLInputElement>('prompt');
const send = byId<HTMLButtonElement>('send');
const palette = byId<HTMLUListElement>('palette');
const dialog = byId<HTMLDialogElement>('confirm-dialog');
const dialogTitle = byId<HTMLHeadingElement>('confirm-title');
const dialogDetails = byId<HTMLDivElement>('confirm-details');
const dialogArguments = byId<HTMLPreElement>('confirm-arguments');
const dialogOptions = byId<HTMLDivElement>('confirm-options');

/** One tool call on screen: its card and the latest ToolCall the agent sent. */
interface ToolCard {
  element: HTMLLIElement;
  call: ToolCallView;
  /** Images that arrived as FileParts next to the ToolCall. */
  attached: InlineImage[];
  /** Other files of its result (audio, blobs), listed by name and type. */
  files: string[];
}

const session = {
  client: undefined as A2aClient | undefined,
  extensionUri: undefined as string | undefined,
  taskId: undefined as string | undefined,
  contextId: undefined as string | undefined,
  settingsSent: false,
  busy: false,
  lastState: undefined as string | undefined,
  commands: [] as CommandView[],
  cards: new Map<string, ToolCard>(),
  answered: new Set<string>(),
  /** The agent bubble the next TEXT_CONTENT is appended to; a new one after each tool card. */
  bubble: undefined as HTMLElement | undefined,
};

function setStatus(text: string, error = false): void {
  agentStatus.textContent = text;
  agentStatus.classList.toggle('error', error);
}

function scrollDown(): void {
  transcript.lastElementChild?.scrollIntoView({ block: 'end' });
}

function addItem(className: string, ...children: (Node | string)[]): HTMLLIElement {
  const item = h('li', { class: className }, ...children);
  transcript.append(item);
  scrollDown();
  return item;
}

function addError(text: string): void {
  addItem('message error', text).setAttribute('role', 'alert');
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function messageId(): string {
  return typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `web-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

// ---- tool-call cards -------------------------------------------------------------------------

function renderCard(card: ToolCard): void {
  const { call } = card;
  card.element.dataset['status'] = call.status;
  card.element.setAttribute('aria-label', `Tool call ${call.toolName}: ${call.status}`);
  const images = [...call.images, ...card.attached];
  card.element.replaceChildren(
    h('h2', {}, h('span', { class: 'tool-name' }, call.toolName), h('span', { class: `status ${call.status}` }, call.status)),
    call.description !== undefined ? h('p', { class: 'description' }, call.description) : '',
    h('details', { class: 'arguments' }, h('summary', {}, 'Arguments'), h('pre', {}, call.inputParameters)),
    call.liveContent !== undefined && call.output === undefined ? h('pre', { class: 'live-content' }, call.liveContent) : '',
    call.output !== undefined ? h('pre', { class: 'output' }, call.output) : '',
    call.error !== undefined ? h('p', { class: 'error' }, call.error) : '',
    images.length > 0
      ? h('div', { class: 'images' }, ...images.map((image) => imageElement(image, `Image from ${call.toolName} (${image.mimeType})`)))
      : '',
    card.files.length > 0
      ? h('ul', { class: 'files', 'aria-label': 'Other attachments' }, ...card.files.map((file) => h('li', {}, file)))
      : '',
  );
}

function upsertToolCall(call: ToolCallView): ToolCard {
  let card = session.cards.get(call.id);
  if (card === undefined) {
    const element = h('li', { class: 'tool-call' });
    element.dataset['toolCallId'] = call.id;
    card = { element, call, attached: [], files: [] };
    session.cards.set(call.id, card);
    transcript.append(element);
  }
  card.call = call;
  renderCard(card);
  session.bubble = undefined;
  scrollDown();
  return card;
}

function attachImage(card: ToolCard, image: InlineImage): void {
  if (card.attached.some((known) => known.data === image.data) || card.call.images.some((known) => known.data === image.data)) return;
  card.attached.push(image);
  renderCard(card);
}

// ---- events --------------------------------------------------------------------------------

function appendAgentText(text: string): void {
  if (text === '') return;
  if (session.bubble === undefined) session.bubble = addItem('message agent');
  session.bubble.append(document.createTextNode(text));
  scrollDown();
}

function renderParts(event: StreamEventView, parts: PartView[]): void {
  let card: ToolCard | undefined;
  for (const part of parts) {
    switch (part.kind) {
      case 'tool-call':
        card = upsertToolCall(part.toolCall);
        break;
      case 'text':
        if (event.state === 'failed') addError(part.text);
        else appendAgentText(part.text);
        break;
      case 'thought':
        addItem('message thought', `${part.subject}: ${part.description}`);
        break;
      case 'image': {
        const owner = (part.toolCallId !== undefined ? session.cards.get(part.toolCallId) : undefined) ?? card;
        if (owner !== undefined) attachImage(owner, part.image);
        else addItem('message agent', imageElement(part.image, `Image from the agent (${part.image.mimeType})`));
        break;
      }
      case 'file': {
        const owner = (part.toolCallId !== undefined ? session.cards.get(part.toolCallId) : undefined) ?? card;
        const line = `${part.name} (${part.mimeType}, not shown)`;
        if (owner === undefined) addItem('message agent', line);
        else if (!owner.files.includes(line)) {
          owner.files.push(line);
          renderCard(owner);
        }
        break;
      }
      case 'data':
        addItem('message agent', h('pre', {}, part.json));
        break;
    }
  }
}

function handleEvent(event: StreamEventView, followsSession: boolean): void {
  if (followsSession) {
    if (event.taskId !== undefined) session.taskId = event.taskId;
    if (event.contextId !== undefined) session.contextId = event.contextId;
  }
  if (event.state !== undefined) {
    session.lastState = event.state;
    setStatus(`Task ${event.state}`);
  }
  // A Task event repeats what the chat already shows; a command's task (followed after it
  // started, perhaps after it ended) shows its history and status message.
  if (event.type !== 'task') renderParts(event, event.parts);
  else if (!followsSession) renderParts(event, [...event.history, ...event.parts]);
  // A failed task's error is usually also its status text: show it once.
  const error = event.error;
  if (error !== undefined && !event.parts.some((part) => part.kind === 'text' && part.text === error)) addError(error);
}

async function runStream(method: string, params: unknown, followsSession = true): Promise<void> {
  const client = session.client;
  if (client === undefined) return;
  setBusy(true);
  session.bubble = undefined;
  session.lastState = undefined;
  try {
    for await (const result of client.stream(method, params)) {
      const event = streamEventFrom(result, session.extensionUri);
      if (event !== undefined) handleEvent(event, followsSession);
    }
  } catch (error) {
    addError(describeError(error));
    if (error instanceof HttpError && error.status === 401) askForToken();
  } finally {
    setBusy(false);
  }
  if (followsSession && (session.lastState === 'completed' || session.lastState === 'failed' || session.lastState === 'canceled')) {
    // The task is over; the next message starts a new task in the same context.
    session.taskId = undefined;
  }
  if (session.lastState === 'input-required') confirmNext();
}

function setBusy(busy: boolean): void {
  session.busy = busy;
  send.disabled = busy;
  composer.setAttribute('aria-busy', String(busy));
}

// ---- sending -------------------------------------------------------------------------------

async function sendText(text: string): Promise<void> {
  addItem('message user', text);
  // The first message of a session carries AgentSettings, when the user named a workspace folder
  // (the agent wants an absolute path of an existing folder; without one it keeps its own).
  const metadata: Record<string, unknown> = {};
  const workspace = workspaceInput.value.trim();
  if (!session.settingsSent && session.extensionUri !== undefined && workspace !== '') {
    metadata[session.extensionUri] = { workspace_path: workspace };
  }
  const message = {
    kind: 'message',
    role: 'user',
    messageId: messageId(),
    parts: [{ kind: 'text', text }],
    ...(session.taskId !== undefined ? { taskId: session.taskId } : {}),
    ...(session.contextId !== undefined ? { contextId: session.contextId } : {}),
    ...(session.extensionUri !== undefined ? { extensions: [session.extensionUri] } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
  const before = session.contextId;
  await runStream('message/stream', { message });
  if (session.contextId !== undefined && (before === undefined || before === session.contextId)) session.settingsSent = true;
}

async function answerConfirmation(call: ToolCallView, optionId: string): Promise<void> {
  session.answered.add(call.id);
  await runStream('message/stream', {
    message: {
      kind: 'message',
      role: 'user',
      messageId: messageId(),
      ...(session.taskId !== undefined ? { taskId: session.taskId } : {}),
      ...(session.contextId !== undefined ? { contextId: session.contextId } : {}),
      ...(session.extensionUri !== undefined ? { extensions: [session.extensionUri] } : {}),
      parts: [{ kind: 'data', data: { tool_call_id: call.id, selected_option_id: optionId } }],
    },
  });
}

async function runCommand(path: string[], args: string): Promise<void> {
  const client = session.client;
  if (client === undefined) return;
  addItem('message user command', `/${[...path, args].filter((word) => word !== '').join(' ')}`);
  setBusy(true);
  let execution: unknown;
  try {
    execution = await client.call('command/execute', { command_path: path, args });
  } catch (error) {
    addError(describeError(error));
    return;
  } finally {
    setBusy(false);
  }
  const record = typeof execution === 'object' && execution !== null ? (execution as Record<string, unknown>) : {};
  const status = typeof record['status'] === 'string' ? record['status'] : 'UNKNOWN';
  const text = typeof record['message'] === 'string' ? record['message'] : '';
  const executionId = typeof record['execution_id'] === 'string' ? record['execution_id'] : undefined;
  if (status === 'FAILED_TO_START') {
    addError(`/${path.join(' ')}: ${text || 'failed to start'}`);
    return;
  }
  if (text !== '') addItem('message note', text);
  // The output streams as the task's events; follow them without making it the chat's task.
  if (executionId !== undefined) await runStream('tasks/resubscribe', { id: executionId }, false);
}

// ---- confirmation dialog -------------------------------------------------------------------

function confirmNext(): void {
  if (dialog.open || session.busy) return;
  const card = [...session.cards.values()].find(
    ({ call }) => call.status === 'PENDING' && call.confirmation !== undefined && !session.answered.has(call.id),
  );
  if (card === undefined || card.call.confirmation === undefined) return;
  const { call } = card;
  const confirmation = card.call.confirmation;
  dialogTitle.textContent = `Allow ${call.toolName}?`;
  dialogDetails.replaceChildren(
    ...(call.description !== undefined ? [h('p', {}, call.description)] : []),
    ...confirmation.details.map((line) => h('p', {}, line)),
  );
  dialogArguments.textContent = call.inputParameters;
  const cancel = confirmation.options.find((option) => option.id === 'cancel');
  dialogOptions.replaceChildren(
    ...confirmation.options.map((option) => {
      const button = h('button', { type: 'button', 'data-option-id': option.id }, option.name);
      if (option.description !== undefined) button.title = option.description;
      button.addEventListener('click', () => {
        dialog.close();
        void answerConfirmation(call, option.id).then(() => prompt.focus());
      });
      return button;
    }),
  );
  // Escape answers with the cancel option when there is one; otherwise the dialog stays.
  dialog.oncancel = (event) => {
    event.preventDefault();
    if (cancel === undefined) return;
    dialog.close();
    void answerConfirmation(call, cancel.id);
  };
  dialog.showModal();
  dialogOptions.querySelector('button')?.focus();
}

// ---- command palette -----------------------------------------------------------------------

let activeOption = -1;
let shown: CommandView[] = [];

function commandText(command: CommandView): string {
  return `/${command.path.join(' ')}`;
}

function closePalette(): void {
  palette.hidden = true;
  prompt.setAttribute('aria-expanded', 'false');
  prompt.removeAttribute('aria-activedescendant');
  activeOption = -1;
}

function updatePalette(): void {
  const value = prompt.value;
  if (!value.startsWith('/') || session.commands.length === 0) return closePalette();
  const typed = value.slice(1).toLowerCase();
  shown = session.commands.filter((command) => command.path.join(' ').toLowerCase().startsWith(typed));
  if (shown.length === 0 || (shown.length === 1 && shown[0] !== undefined && commandText(shown[0]) === value.trimEnd()))
    return closePalette();
  activeOption = Math.min(Math.max(activeOption, 0), shown.length - 1);
  palette.replaceChildren(
    ...shown.map((command, index) => {
      const args = command.arguments.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`)).join(' ');
      const item = h(
        'li',
        { role: 'option', id: `command-${index}`, 'aria-selected': String(index === activeOption) },
        h('span', { class: 'name' }, commandText(command) + (args !== '' ? ` ${args}` : '')),
        command.description !== '' ? h('span', { class: 'description' }, command.description) : '',
      );
      item.addEventListener('mousedown', (event) => event.preventDefault());
      item.addEventListener('click', () => choose(index));
      return item;
    }),
  );
  palette.hidden = false;
  prompt.setAttribute('aria-expanded', 'true');
  prompt.setAttribute('aria-activedescendant', `command-${activeOption}`);
}

function choose(index: number): void {
  const command = shown[index];
  if (command === undefined) return;
  prompt.value = `${commandText(command)} `;
  closePalette();
  prompt.focus();
}

prompt.addEventListener('input', () => {
  activeOption = 0;
  updatePalette();
});
prompt.addEventListener('keydown', (event) => {
  if (palette.hidden) return;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    const step = event.key === 'ArrowDown' ? 1 : -1;
    activeOption = (activeOption + step + shown.length) % shown.length;
    updatePalette();
    palette.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  } else if ((event.key === 'Enter' || event.key === 'Tab') && activeOption >= 0) {
    event.preventDefault();
    choose(activeOption);
  } else if (event.key === 'Escape') {
    event.preventDefault();
    closePalette();
  }
});
prompt.addEventListener('blur', closePalette);

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = prompt.value.trim();
  if (text === '' || session.busy || session.client === undefined) return;
  if (text.startsWith('/') && session.commands.length > 0) {
    const match = matchCommand(text, session.commands);
    if (match === undefined) {
      addError(`Unknown command ${text.split(/\s+/)[0] ?? text}. Type / to see the agent's commands.`);
      return;
    }
    prompt.value = '';
    closePalette();
    void runCommand(match.path, match.args);
    return;
  }
  prompt.value = '';
  closePalette();
  void sendText(text);
});

// ---- connecting ----------------------------------------------------------------------------

function askForToken(): void {
  connection.open = true;
  tokenInput.focus();
}

/** The JSON-RPC endpoint from the card, on this page's origin (the agent serves the page). */
function endpointOf(card: Record<string, unknown>): string {
  const interfaces = Array.isArray(card['additionalInterfaces']) ? card['additionalInterfaces'] : [];
  const jsonRpc = interfaces.find(
    (entry): entry is { url: string } =>
      typeof entry === 'object' &&
      entry !== null &&
      (entry as Record<string, unknown>)['transport'] === 'JSONRPC' &&
      typeof (entry as Record<string, unknown>)['url'] === 'string',
  );
  const preferred = card['preferredTransport'];
  const raw = (preferred === undefined || preferred === 'JSONRPC') && typeof card['url'] === 'string' ? card['url'] : (jsonRpc?.url ?? '/');
  const url = new URL(raw, location.origin);
  return new URL(url.pathname + url.search, location.origin).href;
}

async function connect(): Promise<void> {
  setStatus('Connecting…');
  session.client = undefined;
  const token = (): string => tokenInput.value.trim();
  let card: unknown;
  try {
    card = await fetchAgentCard(location.origin, token());
  } catch (error) {
    setStatus(`Could not read the agent card: ${describeError(error)}`, true);
    return;
  }
  const record = typeof card === 'object' && card !== null ? (card as Record<string, unknown>) : {};
  agentName.textContent = typeof record['name'] === 'string' ? record['name'] : 'A2A agent';
  const extension = findDevelopmentToolExtension(card);
  if (extension !== undefined && !extension.compatible) {
    setStatus(
      `The agent speaks the development-tool extension version ${extension.version || '(none in its URI)'}; this page speaks ${SUPPORTED_EXTENSION_VERSION}.`,
      true,
    );
    return;
  }
  session.extensionUri = extension?.uri;
  session.client = new A2aClient({
    endpoint: endpointOf(record),
    token,
    ...(extension !== undefined ? { extensionUri: extension.uri } : {}),
  });
  const needsToken = record['security'] !== undefined || record['securitySchemes'] !== undefined;
  if (needsToken && token() === '') askForToken();
  try {
    session.commands = commandsFrom(await session.client.call('commands/get', {}));
  } catch (error) {
    session.commands = [];
    if (error instanceof HttpError && error.status === 401) {
      setStatus('The agent needs a bearer token: enter it under Connection, then Reconnect.', true);
      askForToken();
      return;
    }
    addError(`No slash commands: ${describeError(error)}`);
  }
  const version = extension !== undefined ? ` · development-tool ${extension.version}` : ' · no development-tool extension';
  setStatus(`Connected${version} · ${session.commands.length} commands`);
  prompt.focus();
}

connectionForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void connect();
});

// `#token=…` (kept out of server logs and the Referer) or `?token=…` fill the token field, then
// leave the address bar; `?workspace=…` fills the workspace folder.
const params = new URLSearchParams(location.search);
const fragment = new URLSearchParams(location.hash.slice(1));
const givenToken = fragment.get('token') ?? params.get('token');
if (givenToken !== null) {
  tokenInput.value = givenToken;
  params.delete('token');
  fragment.delete('token');
  const search = params.toString();
  const hash = fragment.toString();
  history.replaceState(null, '', `${location.pathname}${search !== '' ? `?${search}` : ''}${hash !== '' ? `#${hash}` : ''}`);
}
workspaceInput.value = params.get('workspace') ?? '';
void connect();
