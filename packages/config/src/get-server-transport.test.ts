import { describe, expect, it } from 'vitest';
import { getServerTransport } from './get-server-transport.js';

describe('getServerTransport', () => {
  it('uses httpUrl, then url (typed or detected), then command', () => {
    expect(getServerTransport({ httpUrl: 'http://h', url: 'http://u', command: 'c' })).toEqual({
      transport: 'http',
      target: 'http://h',
      detected: false,
    });
    expect(getServerTransport({ url: 'http://u', type: 'sse' })).toEqual({ transport: 'sse', target: 'http://u', detected: false });
    expect(getServerTransport({ url: 'http://u' })).toEqual({ transport: 'http', target: 'http://u', detected: true });
    expect(getServerTransport({ url: 'http://u', type: 'stdio' })).toEqual({ transport: 'http', target: 'http://u', detected: true });
    expect(getServerTransport({ command: 'npx', args: ['-y', 'srv'] })).toEqual({
      transport: 'stdio',
      target: 'npx -y srv',
      detected: false,
    });
    expect(getServerTransport({ args: ['x'] })).toBeUndefined();
  });
});
