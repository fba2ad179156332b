import { once } from 'node:events';
import type { RunningExample } from './start-example.js';

/**
 * Play the session every chat example's test plays, waiting for each answer before typing on:
 * ask for everything (the fake API answers with a `mixed-content` call), allow the tool always
 * (option 2), see its result and the model's `I see a one-pixel image.`, show `/mcp`, run the
 * `poem-writer` prompt (the fake API answers `A reverent poem.`), and `/quit`. Rejects if the
 * example exits before printing what is expected; resolves with its exit code.
 */
export async function playChatSession(example: RunningExample): Promise<number | null> {
  await example.waitFor('(1 of 1 configured server connected: "fixture").');
  await example.waitFor('> ');
  example.send('Show me everything.');
  await example.waitFor('"mixed-content" from MCP server "fixture"');
  await example.waitFor('2) Always allow this tool');
  await example.waitFor('choice [');
  example.send('2');
  await example.waitFor('✓ fixture › mixed-content');
  await example.waitFor('I see a one-pixel image.');
  await example.waitFor('> ');
  example.send('/mcp');
  await example.waitFor('Discovery State: COMPLETED');
  await example.waitFor('> ');
  example.send('/poem-writer "Gemini CLI" reverent');
  await example.waitFor('A reverent poem.');
  await example.waitFor('> ');
  example.send('/quit');
  const [code] = (await once(example.child, 'exit')) as [number | null];
  return code;
}
