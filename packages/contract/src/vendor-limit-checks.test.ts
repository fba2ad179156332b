import { describe, expect, it } from 'vitest';
import { AdapterError } from './adapter-error.js';
import type { HostToolDefinition } from './model-adapter.js';
import { DEFAULT_TOOL_NAME_POLICY } from './tool-name-policy.js';
import { vendorLimitChecks, type VendorLimitChecksOptions } from './vendor-limit-checks.js';
import { resolveContextWindowTokens, resolveVendorLimits, type VendorLimits } from './vendor-limits.js';

function tool(name: string, extra: Partial<HostToolDefinition> = {}): HostToolDefinition {
  return { name, serverName: 'srv', originalName: name, description: `Tool ${name}.`, inputSchema: { type: 'object' }, ...extra };
}

function checks(limits: VendorLimits, extra: Partial<VendorLimitChecksOptions> = {}) {
  return vendorLimitChecks({
    provider: 'acme',
    vendor: 'Acme',
    limits,
    toolNames: DEFAULT_TOOL_NAME_POLICY,
    nativeToolSearch: false,
    ...extra,
  });
}

function caught(run: () => unknown): AdapterError {
  try {
    run();
  } catch (error) {
    if (AdapterError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an AdapterError');
}

/** An object schema nested `levels` objects deep. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'object', properties: { leaf: { type: 'string' } } };
  for (let i = 1; i < levels; i++) schema = { type: 'object', properties: { child: schema } };
  return schema;
}

describe('resolveVendorLimits', () => {
  it('lays overrides over the defaults, lifts a limit set to undefined, and freezes the result', () => {
    const limits = resolveVendorLimits(
      'acme',
      { maxTools: 128, maxSchemaDepth: 10 },
      { maxDescriptionLength: 1024, maxSchemaDepth: undefined },
    );
    expect(limits).toEqual({ maxTools: 128, maxDescriptionLength: 1024 });
    expect(Object.isFrozen(limits)).toBe(true);
  });

  it('refuses a limit that is not a positive integer, naming it', () => {
    for (const value of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = caught(() => resolveVendorLimits('acme', {}, { maxTools: value }));
      expect(error).toMatchObject({ code: 'INVALID_OPTIONS', provider: 'acme' });
      expect(error.message).toContain('limits.maxTools must be a positive integer');
    }
  });

  it('checks contextWindowTokens', () => {
    expect(resolveContextWindowTokens('acme', undefined)).toBeUndefined();
    expect(resolveContextWindowTokens('acme', 200_000)).toBe(200_000);
    expect(caught(() => resolveContextWindowTokens('acme', 0)).code).toBe('INVALID_OPTIONS');
  });
});

describe('vendorLimitChecks', () => {
  it('refuses more tool entries than maxTools with a message that names the limit, the vendor, the count and the remedy', () => {
    const error = caught(() => checks({ maxTools: 128 }).checkToolCount(129));
    expect(error).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', provider: 'acme', limit: 'maxTools' });
    expect(error.message).toContain('Acme accepts at most 128 tools in one request (limit maxTools); this one would declare 129');
    expect(error.message).toContain("McpToolHost.create({ toolSearch: 'auto' })");
    expect(() => checks({ maxTools: 128 }).checkToolCount(128)).not.toThrow();
  });

  it('refuses a name over the policy length or with characters it rejects, escaping it in the message', () => {
    const long = 'a'.repeat(70);
    const error = caught(() => checks({}).prepareTools([tool(long)]));
    expect(error).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', limit: 'toolNames', toolName: long });
    expect(error.message).toContain('is 70 characters long; Acme accepts at most 63');
    const odd = caught(() => checks({}).prepareTools([tool('evil\u001b[2Jname')]));
    expect(odd.message).toContain('evil\\u001b[2Jname');
    expect(odd.message).not.toContain('\u001b');
    expect(caught(() => checks({}).prepareTools([tool('')])).limit).toBe('toolNames');
  });

  it('shortens a description over maxDescriptionLength with a marker, never splitting a surrogate pair, and leaves the input alone', () => {
    const description = `Start ${'😀'.repeat(2000)} end`;
    const input = [tool('big', { description }), tool('small')];
    const [big, small] = checks({ maxDescriptionLength: 1024 }).prepareTools(input);
    expect(big?.description.length).toBeLessThanOrEqual(1024);
    expect(big?.description.startsWith('Start 😀')).toBe(true);
    expect(big?.description).toMatch(/ \[…\d+ more characters cut to fit Acme's limit of 1024\]$/);
    expect(big?.description).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(small).toBe(input[1]);
    expect(input[0]?.description).toBe(description);
  });

  it('refuses a deferred tool unless the adapter has native tool search, and counts deferred tools against maxDeferredTools', () => {
    expect(caught(() => checks({}).prepareTools([tool('a', { deferLoading: true })]))).toMatchObject({
      code: 'INVALID_OPTIONS',
      toolName: 'a',
    });
    const native = checks({ maxDeferredTools: 2 }, { nativeToolSearch: true });
    expect(native.prepareTools([tool('a', { deferLoading: true }), tool('b', { deferLoading: true }), tool('c')])).toHaveLength(3);
    const error = caught(() => native.prepareTools(['a', 'b', 'c'].map((name) => tool(name, { deferLoading: true }))));
    expect(error).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', limit: 'maxDeferredTools' });
  });

  it('measures each schema: depth of nested objects, properties, enum values and their characters', () => {
    const limits = { maxSchemaDepth: 10, maxSchemaProperties: 5000, maxSchemaEnumValues: 1000, maxSchemaStringLength: 120_000 };
    const ok = (schema: unknown) => () => checks(limits).checkDeclarations([{ name: 't', declaration: {}, schema }]);
    expect(ok(nested(10))).not.toThrow();
    expect(caught(ok(nested(11)))).toMatchObject({ limit: 'maxSchemaDepth', toolName: 't' });
    // Arrays add no level; objects inside their items do.
    expect(ok({ type: 'object', properties: { list: { type: 'array', items: nested(9) } } })).not.toThrow();
    expect(caught(ok({ type: 'object', properties: { list: { type: 'array', items: nested(10) } } })).limit).toBe('maxSchemaDepth');
    const wide = Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`p${i}`, { type: 'string' }]));
    expect(caught(ok({ type: 'object', properties: wide })).message).toContain('has 5001 object properties; Acme accepts at most 5000');
    const values = Array.from({ length: 1001 }, (_, i) => `v${i}`);
    expect(caught(ok({ type: 'object', properties: { e: { type: 'string', enum: values } } })).limit).toBe('maxSchemaEnumValues');
    const longValues = Array.from({ length: 10 }, (_, i) => `${i}${'x'.repeat(12_000)}`);
    expect(caught(ok({ type: 'object', properties: { e: { type: 'string', enum: longValues } } })).limit).toBe('maxSchemaStringLength');
  });

  it('counts bytes of each schema and of all declarations, in UTF-8', () => {
    const schema = { type: 'object', description: 'é'.repeat(100) };
    expect(caught(() => checks({ maxSchemaBytes: 200 }).checkDeclarations([{ name: 't', declaration: {}, schema }]))).toMatchObject({
      limit: 'maxSchemaBytes',
    });
    expect(() => checks({ maxSchemaBytes: 250 }).checkDeclarations([{ name: 't', declaration: {}, schema }])).not.toThrow();
    const declarations = Array.from({ length: 3 }, (_, i) => ({ name: `t${i}`, declaration: { name: `t${i}`, schema } }));
    const error = caught(() => checks({ maxToolsBytes: 600 }).checkDeclarations(declarations));
    expect(error).toMatchObject({ code: 'VENDOR_LIMIT_EXCEEDED', limit: 'maxToolsBytes' });
    expect(error.message).toMatch(/The tool declarations of this request are \d+ bytes of JSON; Acme accepts at most 600/);
  });
});
