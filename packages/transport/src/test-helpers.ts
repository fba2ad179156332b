import { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** A fresh SDK client for tests. */
export function newClient(): Client {
  return new Client({ name: 'toolhost-transport-test', version: '1.0.0' });
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Text of the first content block of a tool result. */
export function firstText(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;
}
