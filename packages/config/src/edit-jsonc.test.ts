import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { removeJsoncProperty, setJsoncProperty } from './edit-jsonc.js';

const FILE = '/tmp/settings.json';

const COMMENTED = `{
  // top comment
  "theme": "dark", // trailing
  /* block */
  "mcpServers": {
    // the github server
    "github": {
      "command": "npx", // inline
      "args": ["-y"]
    },
    // other server
    "other": { "url": "http://x" } // end
    // "disabled": { "command": "old" }
  },
  "z": 1
}
`;

const set = (text: string, key: string, value: unknown) =>
  setJsoncProperty(text, { objectPath: ['mcpServers'], key, value, filePath: FILE });
const remove = (text: string, key: string) => removeJsoncProperty(text, { objectPath: ['mcpServers'], key, filePath: FILE });

describe('setJsoncProperty', () => {
  it('appends a new entry after the last one and leaves every other byte alone', () => {
    const { text, replaced } = set(COMMENTED, 'new', { command: 'node', args: ['a', 'b'] });
    expect(replaced).toBe(false);
    expect(text).toBe(
      COMMENTED.replace(
        `"other": { "url": "http://x" } // end\n    // "disabled": { "command": "old" }`,
        `"other": { "url": "http://x" }, // end\n    // "disabled": { "command": "old" }\n    "new": {\n      "command": "node",\n      "args": ["a", "b"]\n    }`,
      ),
    );
  });

  it('is undone byte for byte by removing the same entry', () => {
    const added = set(COMMENTED, 'new', { url: 'http://localhost:1/mcp', type: 'http', headers: { A: 'b' } }).text;
    expect(remove(added, 'new')).toEqual({ text: COMMENTED, removed: 1 });
  });

  it('round-trips an empty object and a missing file', () => {
    const empty = '{\n  "mcpServers": {}\n}\n';
    const added = set(empty, 'a', { command: 'x' }).text;
    expect(added).toBe('{\n  "mcpServers": {\n    "a": {\n      "command": "x"\n    }\n  }\n}\n');
    expect(remove(added, 'a').text).toBe(empty);
    expect(set('', 'a', { command: 'x' }).text).toBe('{\n  "mcpServers": {\n    "a": {\n      "command": "x"\n    }\n  }\n}\n');
  });

  it('creates mcpServers in a file without it, keeping tabs, CRLF and comments', () => {
    const text = '// c\r\n{\r\n\t"a": 1 // one\r\n}\r\n';
    expect(set(text, 's', { command: 'x' }).text).toBe(
      '// c\r\n{\r\n\t"a": 1, // one\r\n\t"mcpServers": {\r\n\t\t"s": {\r\n\t\t\t"command": "x"\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
  });

  it('replaces an existing entry in place and says so', () => {
    const { text, replaced } = set(COMMENTED, 'other', { command: 'y' });
    expect(replaced).toBe(true);
    expect(text).toBe(COMMENTED.replace('{ "url": "http://x" }', '{\n      "command": "y"\n    }'));
  });

  it('keeps a byte order mark and a file that only has comments', () => {
    expect(set('\uFEFF{"mcpServers": {}}', 'a', { command: 'x' }).text.startsWith('\uFEFF{"mcpServers": {')).toBe(true);
    expect(set('// only a comment\n', 'a', { command: 'x' }).text.startsWith('// only a comment\n{\n')).toBe(true);
  });

  it('refuses a malformed file or a non-object mcpServers without returning text', () => {
    const malformed = () => set('{\n  "mcpServers": {,\n}', 'a', { command: 'x' });
    expect(malformed).toThrowError(ConfigError);
    try {
      malformed();
    } catch (error) {
      expect(error).toMatchObject({ code: 'FILE_MALFORMED', filePath: FILE, line: 2 });
    }
    try {
      set('{ "mcpServers": [] }', 'a', { command: 'x' });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_TYPE', jsonPath: 'mcpServers', line: 1, column: 17 });
    }
  });
});

describe('removeJsoncProperty', () => {
  it('removes a middle entry and keeps the comments around it', () => {
    const { text, removed } = remove(COMMENTED, 'github');
    expect(removed).toBe(1);
    expect(text).toContain('// the github server\n    // other server\n    "other"');
    expect(text).not.toContain('"github"');
    expect(text).toContain('// top comment');
    expect(text).toContain('// "disabled"');
  });

  it('removes the last entry together with the comma before it, keeping comments', () => {
    const { text } = remove(COMMENTED, 'other');
    expect(text).toBe(
      COMMENTED.replace('"args": ["-y"]\n    },', '"args": ["-y"]\n    }').replace('\n    "other": { "url": "http://x" }', ''),
    );
  });

  it('removes entries written on one line and every duplicate', () => {
    expect(remove('{"mcpServers": {"a": 1, "b": 2, "c": 3}}', 'b').text).toBe('{"mcpServers": {"a": 1, "c": 3}}');
    expect(remove('{"mcpServers": {"a": 1, "b": 2}}', 'b').text).toBe('{"mcpServers": {"a": 1}}');
    expect(remove('{"mcpServers": {"a": 1, "a": 2}}', 'a')).toEqual({ text: '{"mcpServers": {}}', removed: 2 });
  });

  it('reports 0 when there is nothing to remove', () => {
    expect(remove(COMMENTED, 'missing')).toEqual({ text: COMMENTED, removed: 0 });
    expect(remove('{}', 'missing').removed).toBe(0);
  });
});
