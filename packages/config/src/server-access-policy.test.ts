import { describe, expect, it } from 'vitest';
import { createServerAccessPolicy, normalizeServerName } from './server-access-policy.js';

describe('createServerAccessPolicy', () => {
  it('allows everything when no list is set', () => {
    const policy = createServerAccessPolicy();
    expect(policy.isServerAllowed('anything')).toBe(true);
    expect(policy.allowed).toBeUndefined();
  });

  it('compares names ignoring letter case and surrounding spaces', () => {
    const policy = createServerAccessPolicy({ allowed: [' GitHub '], excluded: ['SLACK'] });
    expect(policy.isServerAllowed('github')).toBe(true);
    expect(policy.getServerBlockReason('Slack')?.code).toBe('EXCLUDED');
    expect(policy.getServerBlockReason('other')?.code).toBe('NOT_ALLOWED');
    expect(normalizeServerName('  MiXed ')).toBe('mixed');
  });

  it('treats an empty allow-list as allowing no server', () => {
    const reason = createServerAccessPolicy({ allowed: [] }).getServerBlockReason('github');
    expect(reason?.code).toBe('NOT_ALLOWED');
    expect(reason?.message).toContain('empty list');
  });

  it('lets the exclude-list win over the allow-list', () => {
    expect(createServerAccessPolicy({ allowed: ['a'], excluded: ['A'] }).getServerBlockReason('a')?.code).toBe('EXCLUDED');
  });

  it('blocks everything when a list was malformed', () => {
    expect(createServerAccessPolicy({ invalidListMessage: 'broken' }).getServerBlockReason('a')).toEqual({
      code: 'INVALID_LIST',
      message: 'broken',
    });
  });
});
