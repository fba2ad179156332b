import { describe, expect, it } from 'vitest';
import { expandEnvVars, expandString } from './expand-env-vars.js';

const env = { HOME: '/home/me', TOKEN: 'abc', EMPTY: '', PORT: '9000' };

describe('expandEnvVars', () => {
  it('expands $VAR, ${VAR} and ${VAR:-default}', () => {
    expect(expandEnvVars('$HOME/bin', env)).toBe('/home/me/bin');
    expect(expandEnvVars('Bearer ${TOKEN}', env)).toBe('Bearer abc');
    expect(expandEnvVars('${PORT:-8080}', env)).toBe('9000');
    expect(expandEnvVars('${MISSING:-8080}', env)).toBe('8080');
    expect(expandEnvVars('${EMPTY:-fallback}', env)).toBe('fallback');
    expect(expandEnvVars('${MISSING:-}', env)).toBe('');
  });

  it('turns an unset variable without default into the empty string and reports it', () => {
    const unset: string[] = [];
    expect(expandString('a${NOPE}b$ALSO_NOPE', env, (name) => unset.push(name))).toBe('ab');
    expect(unset).toEqual(['NOPE', 'ALSO_NOPE']);
  });

  it('keeps command substitution, backticks and other dollars literal', () => {
    for (const literal of ['$(rm -rf /)', '`whoami`', '$1', '${A B}', 'price: 5$', '$$', '${}']) {
      expect(expandEnvVars(literal, env)).toBe(literal);
    }
    expect(expandEnvVars('$(echo $TOKEN)', env)).toBe('$(echo abc)');
  });

  it('expands strings inside lists and objects, not keys, and leaves other values alone', () => {
    expect(expandEnvVars({ $TOKEN: '$TOKEN', list: ['${PORT}', 1, true, null] }, env)).toEqual({
      $TOKEN: 'abc',
      list: ['9000', 1, true, null],
    });
  });

  it('does not read inherited properties of the env object', () => {
    expect(expandEnvVars('${toString}${constructor:-x}', {})).toBe('x');
  });

  it('expands a default that holds references itself, only when the default is used, with no stray brace', () => {
    expect(expandEnvVars('${MISSING:-${TOKEN}}', env)).toBe('abc');
    expect(expandEnvVars('${PORT:-${TOKEN}}', env)).toBe('9000');
    expect(expandEnvVars('${MISSING:-${EMPTY:-${NOPE:-deep}}}/x', env)).toBe('deep/x');
    expect(expandEnvVars('${MISSING:-$HOME/bin}', env)).toBe('/home/me/bin');
    expect(expandEnvVars('http://${MISSING:-${TOKEN}.example}:${PORT:-1}/', env)).toBe('http://abc.example:9000/');
    const unset: string[] = [];
    expect(expandString('${MISSING:-${NOPE}}|${TOKEN:-${ALSO_NOPE}}', env, (name) => unset.push(name))).toBe('|abc');
    expect(unset).toEqual(['NOPE']);
    // An unclosed default stays literal text up to the next reference, as any other `$` that starts no reference.
    expect(expandEnvVars('${MISSING:-${TOKEN}', env)).toBe('${MISSING:-abc');
  });

  it('does not expand the result again', () => {
    expect(expandEnvVars('$A', { A: '$B', B: 'no' })).toBe('$B');
  });
});
