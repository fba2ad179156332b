import type { ToolSearchEntry } from './tool-search-entry.js';
import { compareStrings } from './text-analyzer.js';

/**
 * Finds tools by name, the way a model or a person writes one: the exact model-facing name
 * (`github__create_issue`), the same in another case, `server__tool`, or the tool's own name on
 * its server (`create_issue`, every server's tool of that name).
 */
export class ToolNameMatcher {
  readonly #byName: ReadonlyMap<string, ToolSearchEntry>;
  readonly #byFolded = new Map<string, string[]>();

  /** Index the names of `tools` (by model-facing name). */
  constructor(tools: ReadonlyMap<string, ToolSearchEntry>) {
    this.#byName = tools;
    const add = (key: string, name: string): void => {
      const folded = key.toLowerCase();
      const names = this.#byFolded.get(folded) ?? [];
      if (!names.includes(name)) names.push(name);
      this.#byFolded.set(folded, names);
    };
    for (const [name, tool] of tools) {
      add(name, name);
      add(`${tool.serverName}__${tool.toolName}`, name);
      add(tool.toolName, name);
    }
    for (const names of this.#byFolded.values()) names.sort(compareStrings);
  }

  /** The model-facing names `candidates` refer to, in the candidates' order, each once. */
  match(candidates: readonly string[]): string[] {
    const found: string[] = [];
    for (const candidate of candidates) {
      const names = this.#byName.has(candidate) ? [candidate] : (this.#byFolded.get(candidate.toLowerCase()) ?? []);
      for (const name of names) if (!found.includes(name)) found.push(name);
    }
    return found;
  }
}
