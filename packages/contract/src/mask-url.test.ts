import { describe, expect, it } from 'vitest';
import { maskUrl } from './index.js';

describe('maskUrl', () => {
  it('masks the user name, password, query values and fragment, and keeps the rest', () => {
    expect(maskUrl('https://user:sk-1@mcp.example.com:8443/mcp?token=sk-2&region=eu#access_token=sk-3')).toBe(
      'https://***:***@mcp.example.com:8443/mcp?token=***&region=***#***',
    );
    expect(maskUrl('https://mcp.example.com/mcp')).toBe('https://mcp.example.com/mcp');
  });

  it('masks text that does not parse as a URL as far as it can be told apart', () => {
    expect(maskUrl('https://user:sk-1@exa mple.com/x?token=sk-2')).toBe('https://***@exa mple.com/x?***');
  });
});
