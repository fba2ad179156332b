import { describe, expect, it } from 'vitest';
import { selectScopes } from './select-scopes.js';

describe('selectScopes', () => {
  it('prefers the entry scopes, then the challenge, then scopes_supported, else none', () => {
    const challenge = { scope: 'from:challenge' };
    expect(selectScopes({ configScopes: ['from:config'], challenge, resourceScopesSupported: ['from:prm'] })).toBe('from:config');
    expect(selectScopes({ configScopes: [], challenge, resourceScopesSupported: ['from:prm'] })).toBe('from:challenge');
    expect(selectScopes({ resourceScopesSupported: ['a', 'b'] })).toBe('a b');
    expect(selectScopes({})).toBeUndefined();
  });

  it('requests the union of held, configured and challenged scopes on insufficient_scope', () => {
    expect(
      selectScopes({ configScopes: ['base'], previousScope: 'read base', challenge: { error: 'insufficient_scope', scope: 'read write' } }),
    ).toBe('read base write');
  });
});
