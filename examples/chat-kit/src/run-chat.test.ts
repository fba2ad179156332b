// The shared chat loop with a real MCP fixture server, the scripted model adapter and a scripted terminal.
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { McpToolHost } from '@toolhost/host';
import { createScriptedAdapter, type ScriptedToolDeclaration, type ScriptedToolResults, type ScriptedTurn } from '@toolhost/host/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatModel } from './chat-model.js';
import { createConfirmationPrompt } from './create-confirmation-prompt.js';
import { printToolCall } from './print-tool-call.js';
import { runChat } from './run-chat.js';
import type { Terminal } from './terminal.js';

/** A terminal that answers questions from a script and records everything printed. */
function scriptedTerminal(answers: string[]): Terminal & { printed: string[]; questions: string[] } {
  const printed: string[] = [];
  const questions: string[] = [];
  return {
    printed,
    questions,
    ask: async (question) => {
      questions.push(question);
      return answers.shift();
    },
    print: (text) => printed.push(text),
    close: () => undefined,
  };
}

type Model = ChatModel<string, ScriptedToolDeclaration, ScriptedTurn, ScriptedToolResults>;

describe('runChat', () => {
  let host: McpToolHost<ScriptedToolDeclaration, ScriptedTurn, ScriptedToolResults> | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('confirms and runs a tool, sends its result back, runs /mcp and a prompt, and recovers from a failed request', async () => {
    const adapter = createScriptedAdapter({
      turns: [
        { toolCalls: [{ id: 'c1', name: 'echo', arguments: { message: 'hi there' } }] },
        { text: 'The server said hi.' },
        { text: 'Yes, again.' },
      ],
    });
    const terminal = scriptedTerminal(['Say hi.', '1', '', '/mcp', '/poem-writer "Kit" calm', 'Again?', '/quit']);
    host = await McpToolHost.create({
      settings: { mcpServers: { fixture: { command: process.execPath, args: [fixtureBinPath('basic')], timeout: 30_000 } } },
      adapter,
      ui: { confirm: createConfirmationPrompt(terminal) },
    });
    host.on('tool-call-update', (call) => printToolCall(terminal, call));
    await host.discover();
    const requests: { history: string[]; toolCount: number }[] = [];
    const model: Model = {
      name: 'Scripted',
      userMessage: (text) => `user: ${text}`,
      async generate({ history, tools }) {
        requests.push({ history: [...history], toolCount: tools.length });
        if (history.at(-1)?.includes('poem')) throw new Error('model unavailable');
        const turn = adapter.nextTurn();
        return { response: turn, items: [`model: ${turn.text ?? 'calls tools'}`], text: turn.text ?? '' };
      },
      toolResultItems: (results) => results.outcomes.map((outcome) => `tool ${outcome.call.name}: ${JSON.stringify(outcome.parts)}`),
    };

    await runChat({ host, model, terminal });

    // The tool round: confirmed with option 1, run, its result sent back in the next request.
    expect(terminal.printed.some((line) => line.startsWith('? ') && line.endsWith(': "echo" from MCP server "fixture"'))).toBe(true);
    expect(terminal.questions.some((question) => question.startsWith('  choice [1-4'))).toBe(true);
    expect(terminal.printed).toContain('  ✓ fixture › echo: hi there');
    expect(requests[0]?.toolCount).toBeGreaterThan(0);
    expect(requests[1]?.history).toEqual(['user: Say hi.', 'model: calls tools', expect.stringContaining('tool echo:')]);
    expect(requests[1]?.history[2]).toContain('hi there');
    expect(terminal.printed).toContain('The server said hi.');
    // /mcp printed the status view; the prompt ran as a slash command and its text went to the model.
    expect(terminal.printed.join('\n')).toContain('Discovery State: COMPLETED');
    expect(terminal.printed).toContain('(prompt /poem-writer from fixture)');
    // The request with the prompt failed: the failure is reported and the failed turn forgotten.
    expect(requests[2]?.history.at(-1)).toBe('user: Write a calm poem called "Kit".');
    expect(terminal.printed).toContain('Scripted request failed: model unavailable');
    expect(requests[3]?.history).toEqual([
      'user: Say hi.',
      'model: calls tools',
      requests[1]?.history[2],
      'model: The server said hi.',
      'user: Again?',
    ]);
    expect(terminal.printed).toContain('Yes, again.');
  });

  it('stops on /quit and on the end of input without asking the model', async () => {
    host = await McpToolHost.create({ settings: { mcpServers: {} }, adapter: createScriptedAdapter() });
    let generated = 0;
    const model: Model = {
      name: 'Scripted',
      userMessage: (text) => text,
      generate: async () => {
        generated += 1;
        throw new Error('not expected');
      },
      toolResultItems: () => [],
    };
    const quitting = scriptedTerminal(['/help', '/exit', 'never read']);
    await runChat({ host, model, terminal: quitting });
    expect(quitting.printed).toContain('Commands: /mcp [list|desc|schema] [server], /help, /quit');
    expect(quitting.questions).toHaveLength(2);
    const ending = scriptedTerminal([]);
    await runChat({ host, model, terminal: ending });
    expect(ending.questions).toEqual(['\n> ']);
    expect(generated).toBe(0);
  });
});
