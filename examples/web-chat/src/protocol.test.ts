import { describe, expect, it } from 'vitest';
import {
  commandsFrom,
  extensionVersion,
  findDevelopmentToolExtension,
  imageDataUrl,
  isCompatible,
  matchCommand,
  readSse,
  streamEventFrom,
  type SseEvent,
} from './protocol.js';

// The page's reading of the wire: pure functions, run in node on the exact shapes the agent sends.

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const URI = 'https://github.com/google-gemini/gemini-cli/blob/main/docs/a2a/developer-profile/v0/spec.md';

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect(chunks: Uint8Array[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of readSse(streamOf(chunks))) out.push(event);
  return out;
}

describe('readSse', () => {
  const text =
    'data: {"a":"é"}\n\n' + // a two-byte character
    ': a comment\r\nevent: error\r\ndata: line one\r\ndata: line two\r\n\r\n' +
    'id: 3\rdata: {"b":1}\r\r' +
    'data: unfinished';
  const bytes = new TextEncoder().encode(text);

  it('reads events split at every possible byte boundary the same way', async () => {
    const expected: SseEvent[] = [
      { event: 'message', data: '{"a":"é"}' },
      { event: 'error', data: 'line one\nline two' },
      { event: 'message', data: '{"b":1}' },
    ];
    expect(await collect([bytes])).toEqual(expected);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await collect([bytes.slice(0, cut), bytes.slice(cut)])).toEqual(expected);
    }
    expect(await collect([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(expected);
  });
});

describe('extension version and compatibility', () => {
  it('takes the version embedded in the URI', () => {
    expect(extensionVersion(URI)).toBe('0');
    expect(extensionVersion('https://example.com/ext/development-tool/v1.2.3')).toBe('1.2.3');
    expect(extensionVersion('https://example.com/development-tool/v0.1/spec.md?x=1')).toBe('0.1');
    expect(extensionVersion('https://example.com/development-tool/spec.md')).toBeUndefined();
  });

  it('follows semver 2.0.0: same major; in major 0 also the same minor (unless only the major is named); pre-releases only when equal', () => {
    expect(isCompatible('1.2.0', '1.0.0')).toBe(true);
    expect(isCompatible('1.2.0', '2.0.0')).toBe(false);
    expect(isCompatible('0.1.0', '0.1.5')).toBe(true);
    expect(isCompatible('0.1.0', '0.2.0')).toBe(false);
    expect(isCompatible('0.1.0', '0')).toBe(true);
    expect(isCompatible('0.1.0', '1')).toBe(false);
    expect(isCompatible('1.0.0', '1.0.0-rc.1')).toBe(false);
    expect(isCompatible('1.0.0', 'one')).toBe(false);
  });

  it('finds the extension in the agent card', () => {
    const card = { capabilities: { streaming: true, extensions: [{ uri: 'https://other/ext/v1' }, { uri: URI, required: true }] } };
    expect(findDevelopmentToolExtension(card)).toEqual({ uri: URI, version: '0', compatible: true });
    const next = { capabilities: { extensions: [{ uri: 'https://example.com/development-tool/v1/spec.md' }] } };
    expect(findDevelopmentToolExtension(next)).toEqual({
      uri: 'https://example.com/development-tool/v1/spec.md',
      version: '1',
      compatible: false,
    });
    expect(findDevelopmentToolExtension({ capabilities: {} })).toBeUndefined();
  });
});

describe('imageDataUrl', () => {
  it('builds data: URLs only for raster image types with base64 data', () => {
    expect(imageDataUrl({ mimeType: 'image/png', data: PNG })).toBe(`data:image/png;base64,${PNG}`);
    expect(imageDataUrl({ mimeType: 'image/svg+xml', data: PNG })).toBeUndefined();
    expect(imageDataUrl({ mimeType: 'text/html', data: PNG })).toBeUndefined();
    expect(imageDataUrl({ mimeType: 'image/png;x=<script>', data: PNG })).toBeUndefined();
    expect(imageDataUrl({ mimeType: 'image/png', data: 'abc"onerror=x' })).toBeUndefined();
    expect(imageDataUrl({ mimeType: 'image/png', data: '' })).toBeUndefined();
  });
});

describe('streamEventFrom', () => {
  const toolCall = {
    tool_call_id: 'call-1',
    status: 'SUCCEEDED',
    tool_name: 'basic__mixed-content',
    input_parameters: { a: 1 },
    output: { text: 'first text block' },
  };

  it('reads a v0.3 status update with a ToolCall DataPart, a FilePart image and the event kind', () => {
    const event = streamEventFrom(
      {
        kind: 'status-update',
        taskId: 't1',
        contextId: 'c1',
        final: false,
        status: {
          state: 'working',
          message: {
            kind: 'message',
            role: 'agent',
            messageId: 'm',
            parts: [
              { kind: 'data', data: toolCall },
              { kind: 'file', file: { bytes: PNG, mimeType: 'image/png' } },
            ],
          },
        },
        metadata: { [URI]: { kind: 'TOOL_CALL_UPDATE' } },
      },
      URI,
    );
    expect(event).toMatchObject({ type: 'status-update', taskId: 't1', contextId: 'c1', state: 'working', eventKind: 'TOOL_CALL_UPDATE' });
    expect(event?.parts).toEqual([
      {
        kind: 'tool-call',
        toolCall: {
          id: 'call-1',
          status: 'SUCCEEDED',
          toolName: 'basic__mixed-content',
          inputParameters: '{\n  "a": 1\n}',
          output: 'first text block',
          images: [],
        },
      },
      { kind: 'image', image: { mimeType: 'image/png', data: PNG } },
    ]);
  });

  it('reads a pending ToolCall with its confirmation request, and the input-required end of the stream', () => {
    const pending = streamEventFrom({
      kind: 'status-update',
      taskId: 't1',
      final: true,
      status: {
        state: 'input-required',
        message: {
          kind: 'message',
          parts: [
            {
              kind: 'data',
              data: {
                ...toolCall,
                status: 'PENDING',
                output: undefined,
                confirmation_request: {
                  options: [
                    { id: 'proceed_once', name: 'Allow once' },
                    { id: 'cancel', name: 'Cancel', description: 'Do not run' },
                    { name: 'no id' },
                  ],
                  mcp_details: { server_name: 'basic', tool_name: 'mixed-content' },
                },
              },
            },
          ],
        },
      },
      metadata: { kind: 'STATE_CHANGE' },
    });
    expect(pending).toMatchObject({ state: 'input-required', final: true, eventKind: 'STATE_CHANGE' });
    expect(pending?.parts[0]).toMatchObject({
      kind: 'tool-call',
      toolCall: {
        status: 'PENDING',
        confirmation: {
          options: [
            { id: 'proceed_once', name: 'Allow once' },
            { id: 'cancel', name: 'Cancel', description: 'Do not run' },
          ],
          details: ['MCP server: basic', 'Tool: mixed-content'],
        },
      },
    });
  });

  it('reads the v1.0 shape (statusUpdate wrapper, TASK_STATE_ names, parts without kind)', () => {
    const event = streamEventFrom({
      statusUpdate: {
        taskId: 't2',
        contextId: 'c2',
        status: { state: 'TASK_STATE_INPUT_REQUIRED', message: { parts: [{ text: 'hello' }, { raw: PNG, mediaType: 'image/png' }] } },
        final: true,
      },
    });
    expect(event).toMatchObject({ type: 'status-update', taskId: 't2', state: 'input-required', final: true });
    expect(event?.parts).toEqual([
      { kind: 'text', text: 'hello' },
      { kind: 'image', image: { mimeType: 'image/png', data: PNG } },
    ]);
  });

  it('finds images in a ToolCall output’s structured data, and the error of a failed call', () => {
    const event = streamEventFrom({
      kind: 'status-update',
      status: {
        state: 'working',
        message: {
          parts: [
            {
              kind: 'data',
              data: { ...toolCall, output: { structured_data: { parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] } } },
            },
            {
              kind: 'data',
              data: { ...toolCall, tool_call_id: 'call-2', status: 'FAILED', output: undefined, error: { message: 'boom' } },
            },
          ],
        },
      },
    });
    expect(event?.parts[0]).toMatchObject({ toolCall: { images: [{ mimeType: 'image/png', data: PNG }] } });
    expect(event?.parts[1]).toMatchObject({ toolCall: { status: 'FAILED', error: 'boom' } });
  });
});

describe('a Task event', () => {
  it('keeps the agent turns of its history apart from its status message', () => {
    const event = streamEventFrom({
      kind: 'task',
      id: 't3',
      contextId: 'c3',
      status: { state: 'completed', message: { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'done' }] } },
      history: [
        { kind: 'message', role: 'user', parts: [{ kind: 'text', text: '/mcp' }] },
        { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'basic - Connected' }] },
      ],
    });
    expect(event).toMatchObject({ type: 'task', taskId: 't3', contextId: 'c3', state: 'completed' });
    expect(event?.history).toEqual([{ kind: 'text', text: 'basic - Connected' }]);
    expect(event?.parts).toEqual([{ kind: 'text', text: 'done' }]);
  });
});

describe('commands', () => {
  const commands = commandsFrom({
    commands: [
      {
        name: 'mcp',
        description: 'MCP servers',
        arguments: [],
        sub_commands: [{ name: 'list', description: 'List servers', arguments: [], sub_commands: [] }],
      },
      { name: 'poem-writer', description: 'Writes a poem', arguments: [{ name: 'title', description: 'Title', is_required: true }] },
    ],
  });

  it('flattens commands/get with sub-commands', () => {
    expect(commands.map((command) => command.path.join(' '))).toEqual(['mcp', 'mcp list', 'poem-writer']);
    expect(commands[2]?.arguments).toEqual([{ name: 'title', description: 'Title', required: true }]);
  });

  it('matches the longest command path and keeps the rest as arguments', () => {
    expect(matchCommand('/mcp list desc', commands)).toEqual({ path: ['mcp', 'list'], args: 'desc' });
    expect(matchCommand('/mcp', commands)).toEqual({ path: ['mcp'], args: '' });
    expect(matchCommand('/poem-writer --title="a b"', commands)).toEqual({ path: ['poem-writer'], args: '--title="a b"' });
    expect(matchCommand('/nope', commands)).toBeUndefined();
    expect(matchCommand('hello', commands)).toBeUndefined();
  });
});
