import { describe, expect, it } from 'vitest';
import { ToolhostError } from '@toolhost/contract';
import { ConfigError } from './config-error.js';
import { formatJsonPath, offsetToPosition } from './json-path.js';

describe('ConfigError', () => {
  it('is recognised by its brand, also across copies of the package', () => {
    const error = new ConfigError({ code: 'FILE_MALFORMED', message: 'm', filePath: '/f', line: 2, column: 3, cause: new Error('c') });
    expect(ConfigError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'ConfigError', code: 'FILE_MALFORMED', filePath: '/f', line: 2, column: 3 });
    expect((error.cause as Error).message).toBe('c');
    expect(ConfigError.isInstance({ [Symbol.for('toolhost.error')]: 'config' })).toBe(true);
    expect(ConfigError.isInstance({ [Symbol.for('toolhost.error')]: 'transport' })).toBe(false);
    expect(ToolhostError.isInstance(error)).toBe(true);
    expect(error.family).toBe('config');
    expect(ConfigError.isInstance(new Error('x'))).toBe(false);
    expect(ConfigError.isInstance(null)).toBe(false);
  });
});

describe('formatJsonPath and offsetToPosition', () => {
  it('formats keys and indices for people', () => {
    expect(formatJsonPath(['mcpServers', 'github', 'args', 0])).toBe('mcpServers.github.args[0]');
    expect(formatJsonPath(['mcpServers', 'my.server', 'env', 'A B'])).toBe('mcpServers["my.server"].env["A B"]');
    expect(formatJsonPath([])).toBe('');
  });

  it('counts 1-based lines and columns', () => {
    expect(offsetToPosition('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(offsetToPosition('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});
