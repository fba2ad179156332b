import type * as Contract from './index.js';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { AdapterError } from './adapter-error.js';
import { ERROR_CODES, isErrorCode, type ErrorCode } from './error-codes.js';
import { ToolhostError, findErrorInChain } from './toolhost-error.js';

const SAMPLE_CODES = ['SERVER_NOT_FOUND', 'REQUEST_TIMEOUT'] as const satisfies readonly ErrorCode[];

class SampleError extends ToolhostError<(typeof SAMPLE_CODES)[number]> {
  static override readonly family = 'sample';
  static override readonly codes = SAMPLE_CODES;
}

describe('ToolhostError', () => {
  it('carries code, message, server name and cause, and names itself after its class', () => {
    const cause = new Error('ECONNREFUSED');
    const error = new SampleError({ code: 'SERVER_NOT_FOUND', message: 'No server "docs".', serverName: 'docs', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SampleError');
    expect(error.code).toBe('SERVER_NOT_FOUND');
    expect(error.message).toBe('No server "docs".');
    expect(error.serverName).toBe('docs');
    expect(error.cause).toBe(cause);
    expect(error.family).toBe('sample');
    expect(Object.keys(error)).not.toContain('family');
  });

  it('isInstance tells families apart, and the base accepts every family', () => {
    const sample = new SampleError({ code: 'REQUEST_TIMEOUT', message: 'slow' });
    const adapter = new AdapterError({ code: 'INVALID_TOOL_CALL', message: 'no name', provider: 'gemini' });
    expect(SampleError.isInstance(sample)).toBe(true);
    expect(SampleError.isInstance(adapter)).toBe(false);
    expect(AdapterError.isInstance(adapter)).toBe(true);
    expect(ToolhostError.isInstance(sample)).toBe(true);
    expect(ToolhostError.isInstance(adapter)).toBe(true);
    for (const other of [new Error('x'), null, undefined, 'SERVER_NOT_FOUND', { code: 'SERVER_NOT_FOUND' }]) {
      expect(ToolhostError.isInstance(other)).toBe(false);
    }
  });

  it('recognises an error thrown by another copy of the package (the CommonJS build beside the ESM source)', async () => {
    const require = createRequire(import.meta.url);
    const other = require('../dist/index.cjs') as typeof Contract;
    expect(other.ToolhostError).not.toBe(ToolhostError);
    const foreign = new other.AdapterError({ code: 'EMPTY_SAMPLING_RESPONSE', message: 'blocked', provider: 'openai' });
    expect(foreign instanceof AdapterError).toBe(false);
    expect(AdapterError.isInstance(foreign)).toBe(true);
    expect(ToolhostError.isInstance(foreign)).toBe(true);
    expect(SampleError.isInstance(foreign)).toBe(false);
  });

  it('every code of every class in this package is in the catalogue', () => {
    for (const code of [...AdapterError.codes, ...SAMPLE_CODES]) expect(isErrorCode(code)).toBe(true);
    expect(isErrorCode('NOT_A_CODE')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    for (const [code, description] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(description.length, code).toBeGreaterThan(10);
    }
  });
});

describe('findErrorInChain', () => {
  it('returns the deepest match by default, the first on request, and survives cycles', () => {
    const root = new SampleError({ code: 'REQUEST_TIMEOUT', message: 'root' });
    const middle = new AdapterError({ code: 'INVALID_TOOL_CALL', message: 'middle', provider: 'x', cause: root });
    const top = new Error('top', { cause: middle });
    expect(findErrorInChain(top, (e): e is ToolhostError => ToolhostError.isInstance(e))).toBe(root);
    expect(findErrorInChain(top, (e): e is ToolhostError => ToolhostError.isInstance(e), { deepest: false })).toBe(middle);
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(findErrorInChain(a, (e): e is SampleError => SampleError.isInstance(e))).toBeUndefined();
  });
});
