import { describe, expect, it } from 'vitest';
import { deepFreeze, deeplyNested, chainDepth } from './__fixtures__/visit-schemas.js';
import type { DroppedSchemaKeyword, SchemaProfile } from './index.js';
import { SCHEMA_PROFILES, sanitizeSchema, SchemaSanitizerError } from './index.js';

describe('sanitizeSchema: every profile', () => {
  it.each(SCHEMA_PROFILES)('%s: a missing or non-object schema becomes an empty object schema', (profile) => {
    for (const input of [undefined, null, 'x', 42, [], true]) {
      expect(sanitizeSchema(input, { profile })).toEqual({ type: 'object', properties: {} });
    }
  });

  it.each(SCHEMA_PROFILES)('%s: never mutates the input and shares no objects with it', (profile) => {
    const input = deepFreeze({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string' }, default: ['a'] },
        meta: { type: 'object', properties: { k: { type: ['string', 'null'] } } },
      },
      required: ['tags'],
    });
    const before = JSON.stringify(input);
    const out = sanitizeSchema(input, { profile });
    expect(JSON.stringify(input)).toBe(before);
    expect(out).not.toBe(input);
    expect(out['properties']).not.toBe(input.properties);
    const tags = (out['properties'] as Record<string, Record<string, unknown>>)['tags']!;
    expect(tags).not.toBe(input.properties.tags);
    if (tags['default'] !== undefined) expect(tags['default']).not.toBe(input.properties.tags.default);
  });

  it.each(SCHEMA_PROFILES)('%s: survives 10 000 levels of nesting without a stack overflow', (profile) => {
    const out = sanitizeSchema(deeplyNested(10_000), { profile });
    expect(chainDepth(out)).toBe(10_000);
  });

  /** A value nested `depth` levels deep, built the way `JSON.parse` builds a server's answer. */
  const deepValue = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
  /** Schemas nested 10 000 levels deep through every keyword that holds subschemas or values. */
  const deepShapes: Record<string, () => unknown> = {
    items: () => ({
      type: 'object',
      properties: { a: JSON.parse(`${'{"type":"array","items":'.repeat(10_000)}{"type":"string"}${'}'.repeat(10_000)}`) },
    }),
    anyOf: () => ({
      type: 'object',
      properties: { a: JSON.parse(`${'{"anyOf":[{"type":"null"},'.repeat(10_000)}{"type":"string"}${']}'.repeat(10_000)}`) },
    }),
    allOf: () => ({
      type: 'object',
      properties: { a: JSON.parse(`${'{"allOf":[{"type":"object"},'.repeat(10_000)}{"type":"object"}${']}'.repeat(10_000)}`) },
    }),
    not: () => ({ type: 'object', properties: { a: JSON.parse(`${'{"not":'.repeat(10_000)}{"type":"string"}${'}'.repeat(10_000)}`) } }),
    'values (default, examples, enum, const)': () => ({
      type: 'object',
      properties: { a: { type: 'object', default: deepValue(10_000), examples: [deepValue(10_000)], enum: [deepValue(10_000)] } },
      required: ['a'],
    }),
    const: () => ({ type: 'object', properties: { a: { const: deepValue(10_000) } } }),
  };

  it.each(Object.keys(deepShapes))('every profile survives 10 000 levels through %s, where JSON.stringify throws', (shape) => {
    const schema = deepShapes[shape]!();
    expect(() => JSON.stringify(schema)).toThrow(RangeError);
    for (const profile of SCHEMA_PROFILES) {
      for (const geminiSchemaFieldsOnly of profile === 'gemini' ? [false, true] : [false]) {
        const dropped: DroppedSchemaKeyword[] = [];
        const out = sanitizeSchema(schema, { profile, geminiSchemaFieldsOnly, onDrop: (d) => dropped.push(d) });
        expect(out['type'], `${profile}${geminiSchemaFieldsOnly ? ' (fields only)' : ''}`).toBe('object');
      }
    }
  });

  it('gemini fields-only quotes a dropped deep or huge enum or const value as {…}, and cuts a long one', () => {
    const out = sanitizeSchema(
      {
        type: 'object',
        properties: {
          deep: { enum: [1, deepValue(10_000)] },
          constant: { const: deepValue(10_000) },
          long: { const: 'x'.repeat(1000), type: 'number' },
        },
      },
      { profile: 'gemini', geminiSchemaFieldsOnly: true },
    );
    const properties = out['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['deep']?.['description']).toBe('one of: 1, {…}');
    expect(properties['constant']?.['description']).toBe('must be {…}');
    expect(properties['long']?.['description']).toBe(`one of: ${'x'.repeat(200)}…`);
  });

  it.each(SCHEMA_PROFILES)('%s: a property named like a keyword is kept (names are not keywords)', (profile) => {
    const input = {
      type: 'object',
      properties: { $schema: { type: 'string' }, additionalProperties: { type: 'string' }, default: { type: 'number' } },
      required: [],
    };
    const out = sanitizeSchema(input, { profile });
    expect(Object.keys(out['properties'] as object)).toEqual(['$schema', 'additionalProperties', 'default']);
  });

  it.each(SCHEMA_PROFILES)('%s: an own __proto__ property is copied as data, never as a prototype', (profile) => {
    const input = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}},"x-meta":{"__proto__":{"polluted":true}}}');
    const out = sanitizeSchema(input, { profile });
    const properties = out['properties'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(properties, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a cyclic JavaScript object graph fails with SCHEMA_TOO_LARGE instead of hanging', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node['properties'] as Record<string, unknown>)['self'] = node;
    for (const profile of SCHEMA_PROFILES) {
      let error: unknown;
      try {
        sanitizeSchema(node, { profile, maxNodes: 5_000 });
      } catch (caught) {
        error = caught;
      }
      expect(SchemaSanitizerError.isInstance(error)).toBe(true);
      expect((error as SchemaSanitizerError).code).toBe('SCHEMA_TOO_LARGE');
    }
  });

  it('an unknown profile is a typed error', () => {
    expect(() => sanitizeSchema({}, { profile: 'llama' as SchemaProfile })).toThrow(/Unknown schema profile 'llama'/);
  });

  it('defaults to the gemini profile', () => {
    expect(sanitizeSchema({ type: 'object', additionalProperties: false, properties: {} })).toEqual({ type: 'object', properties: {} });
  });
});

describe('sanitizeSchema: gemini (the seeds rules)', () => {
  const gemini = (schema: unknown) => sanitizeSchema(schema, { profile: 'gemini' });

  it('drops $schema and additionalProperties everywhere, including additionalProperties that are schemas', () => {
    const out = gemini({
      $schema: 'x',
      type: 'object',
      additionalProperties: false,
      properties: {
        map: {
          type: 'object',
          additionalProperties: { type: 'object', additionalProperties: false, properties: { v: { type: 'string' } } },
        },
        list: { type: 'array', items: { type: 'object', $schema: 'y', additionalProperties: true, properties: {} } },
        tuple: { type: 'array', prefixItems: [{ type: 'object', additionalProperties: false }] },
      },
    });
    expect(JSON.stringify(out)).not.toMatch(/\$schema|additionalProperties/);
    expect(out).toEqual({
      type: 'object',
      properties: {
        map: { type: 'object' },
        list: { type: 'array', items: { type: 'object', properties: {} } },
        tuple: { type: 'array', prefixItems: [{ type: 'object' }] },
      },
    });
  });

  it('drops default only where anyOf is present, at any depth (anyOf/oneOf/allOf/$defs)', () => {
    const out = gemini({
      type: 'object',
      properties: {
        a: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null },
        b: { type: 'string', default: 'keep' },
        c: {
          oneOf: [
            { anyOf: [{ type: 'number' }], default: 1 },
            { type: 'string', default: 'x' },
          ],
        },
        d: { allOf: [{ anyOf: [{ type: 'string' }], default: 'gone' }] },
      },
    });
    expect(out['properties']).toEqual({
      a: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      b: { type: 'string', default: 'keep' },
      c: { oneOf: [{ anyOf: [{ type: 'number' }] }, { type: 'string', default: 'x' }] },
      d: { allOf: [{ anyOf: [{ type: 'string' }] }] },
    });
  });

  it('does not treat data as schemas: a default value holding additionalProperties is copied unchanged', () => {
    const out = gemini({ type: 'object', properties: { cfg: { type: 'object', default: { additionalProperties: false, $schema: 'v' } } } });
    expect((out['properties'] as Record<string, Record<string, unknown>>)['cfg']!['default']).toEqual({
      additionalProperties: false,
      $schema: 'v',
    });
  });

  it('inlines local $refs, drops $defs/definitions, and resolves refs to any JSON pointer', () => {
    const out = gemini({
      type: 'object',
      properties: {
        who: { $ref: '#/$defs/Person', description: 'The person' },
        again: { $ref: '#/properties/who' },
        odd: { $ref: '#/definitions/a~1b' },
      },
      $defs: { Person: { type: 'object', properties: { name: { type: 'string' } }, description: 'A person' } },
      definitions: { 'a/b': { type: 'integer' } },
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        who: { type: 'object', properties: { name: { type: 'string' } }, description: 'The person' },
        again: { type: 'object', properties: { name: { type: 'string' } }, description: 'The person' },
        odd: { type: 'integer' },
      },
    });
  });

  it('cuts recursive $refs at maxRefDepth, keeping the description, and reports it', () => {
    const dropped: DroppedSchemaKeyword[] = [];
    const schema = {
      type: 'object',
      properties: { root: { $ref: '#/$defs/Node' } },
      $defs: { Node: { type: 'object', description: 'A node', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Node' } } } } },
    };
    const out = sanitizeSchema(schema, { profile: 'gemini', maxRefDepth: 1, onDrop: (d) => dropped.push(d) });
    expect(out['properties']).toEqual({
      root: { type: 'object', description: 'A node', properties: { kids: { type: 'array', items: { description: 'A node' } } } },
    });
    expect(dropped).toContainEqual({ path: '/properties/root/properties/kids/items', keyword: '$ref', reason: 'ref-depth-limit' });
  });

  it('handles a self-referencing root ($ref "#") and mutual recursion without hanging', () => {
    const out = gemini({
      type: 'object',
      properties: { next: { $ref: '#' }, a: { $ref: '#/$defs/A' } },
      $defs: {
        A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } },
        B: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } },
      },
    });
    expect(JSON.stringify(out)).not.toContain('$ref');
    expect(JSON.stringify(out).length).toBeLessThan(2_000);
  });

  it('bounds exponential $defs fan-out with maxInlinedRefs', () => {
    const $defs: Record<string, unknown> = { L0: { type: 'string' } };
    for (let level = 1; level <= 30; level++)
      $defs[`L${level}`] = { type: 'object', properties: { x: { $ref: `#/$defs/L${level - 1}` }, y: { $ref: `#/$defs/L${level - 1}` } } };
    const start = performance.now();
    const out = sanitizeSchema(
      { type: 'object', properties: { top: { $ref: '#/$defs/L30' } }, $defs },
      { profile: 'gemini', maxInlinedRefs: 500 },
    );
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(JSON.stringify(out)).not.toContain('$ref');
  });

  it('drops unresolvable and remote $refs but keeps their siblings', () => {
    const dropped: DroppedSchemaKeyword[] = [];
    const out = sanitizeSchema(
      {
        type: 'object',
        properties: { a: { $ref: 'https://example.com/s.json', description: 'remote' }, b: { $ref: '#/$defs/missing', type: 'string' } },
      },
      { profile: 'gemini', onDrop: (d) => dropped.push(d) },
    );
    expect(out['properties']).toEqual({ a: { description: 'remote' }, b: { type: 'string' } });
    expect(dropped.filter((d) => d.reason === 'unresolved-ref')).toHaveLength(2);
  });

  it('rewrites type [X, "null"] to nullable and makes boolean schemas {}', () => {
    const out = gemini({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: ['null', 'integer'] },
        c: { type: ['string', 'number', 'null'] },
        d: true,
        e: { type: 'array', items: false },
      },
    });
    expect(out['properties']).toEqual({
      a: { type: 'string', nullable: true },
      b: { type: 'integer', nullable: true },
      c: { anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true },
      d: {},
      e: { type: 'array', items: {} },
    });
  });

  it('makes the root an object: root $ref resolved, root anyOf of objects merged, other roots replaced', () => {
    expect(
      gemini({
        $ref: '#/definitions/Args',
        definitions: { Args: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
      }),
    ).toEqual({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
    expect(
      gemini({
        anyOf: [
          { type: 'object', properties: { a: { type: 'string' }, id: { type: 'string' } }, required: ['a', 'id'] },
          { type: 'object', properties: { b: { type: 'number' }, id: { type: 'string' } }, required: ['id'] },
        ],
      }),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, id: { type: 'string' }, b: { type: 'number' } },
      required: ['id'],
    });
    expect(gemini({ type: 'string' })).toEqual({ type: 'object', properties: {} });
    expect(gemini({ properties: { a: { type: 'string' } } })).toEqual({ properties: { a: { type: 'string' } }, type: 'object' });
    expect(gemini({})).toEqual({ type: 'object', properties: {} });
  });
});

describe('sanitizeSchema: gemini with geminiSchemaFieldsOnly', () => {
  const fieldsOnly = (schema: unknown, dropped?: DroppedSchemaKeyword[]) =>
    sanitizeSchema(schema, { profile: 'gemini', geminiSchemaFieldsOnly: true, onDrop: dropped ? (d) => dropped.push(d) : undefined });
  /** The output for one property `p` of an object root. */
  const property = (schema: unknown, dropped?: DroppedSchemaKeyword[]) =>
    (fieldsOnly({ type: 'object', properties: { p: schema } }, dropped)['properties'] as Record<string, unknown>)['p'];

  it("keeps only the fields of Gemini's Schema, rewriting oneOf, string const and formats", () => {
    const dropped: DroppedSchemaKeyword[] = [];
    const out = fieldsOnly(
      {
        type: 'object',
        properties: {
          n: { type: 'integer', exclusiveMinimum: 0, minimum: 1, 'x-unit': 'ms' },
          kind: { const: 'room' },
          pick: {
            oneOf: [
              { type: 'string', format: 'uri' },
              { type: 'string', format: 'date-time' },
            ],
          },
          tuple: { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'string', format: 'enum', enum: ['a'] } },
        },
        required: ['n'],
      },
      dropped,
    );
    expect(out).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 1 },
        kind: { type: 'string', enum: ['room'] },
        pick: {
          anyOf: [
            { type: 'string', description: 'format: uri' },
            { type: 'string', format: 'date-time' },
          ],
        },
        tuple: { type: 'array', items: { type: 'string', format: 'enum', enum: ['a'] } },
      },
      required: ['n'],
    });
    expect(dropped.map((d) => d.keyword).sort()).toEqual(['exclusiveMinimum', 'format', 'prefixItems', 'x-unit']);
  });

  it('keeps a format only where the API takes it for the type, and names a dropped one in the description', () => {
    expect(property({ type: 'string', format: 'uuid', description: 'Page id' })).toEqual({
      type: 'string',
      description: 'Page id (format: uuid)',
    });
    expect(property({ type: 'integer', format: 'int64' })).toEqual({ type: 'integer', format: 'int64' });
    expect(property({ type: 'integer', format: 'uint8' })).toEqual({ type: 'integer', description: 'format: uint8' });
    expect(property({ type: 'number', format: 'double' })).toEqual({ type: 'number', format: 'double' });
    expect(property({ type: ['string', 'null'], format: 'email' })).toEqual({
      type: 'string',
      nullable: true,
      description: 'format: email',
    });
    expect(property({ type: 'boolean', format: 'date-time' })).toEqual({ type: 'boolean', description: 'format: date-time' });
  });

  it('turns null members of anyOf into nullable and merges a single member left, following its $ref', () => {
    // pydantic's Optional[int] = None
    expect(property({ anyOf: [{ type: 'integer' }, { type: 'null' }], default: null, title: 'Limit' })).toEqual({
      type: 'integer',
      nullable: true,
      default: null,
      title: 'Limit',
    });
    const out = fieldsOnly({
      type: 'object',
      properties: { parent: { description: 'Where to', anyOf: [{ $ref: '#/$defs/Parent' }, { type: 'null' }] } },
      $defs: { Parent: { type: 'object', description: 'A parent', properties: { id: { type: 'string' } }, required: ['id'] } },
    });
    expect(out['properties']).toEqual({
      parent: { description: 'Where to', nullable: true, type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    });
    expect(property({ anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] })).toEqual({
      nullable: true,
      anyOf: [{ type: 'string' }, { type: 'number' }],
    });
    expect(property({ type: 'null', description: 'Always null' })).toEqual({ nullable: true, description: 'Always null' });
  });

  it('bounds a recursive nullable $ref like any other ref', () => {
    const out = fieldsOnly({
      $ref: '#/$defs/Node',
      $defs: { Node: { type: 'object', properties: { next: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] } } } },
    });
    let depth = 0;
    for (let node = out; node['properties'] !== undefined; depth++)
      node = (node['properties'] as Record<string, Record<string, unknown>>)['next']!;
    expect(depth).toBeGreaterThan(0);
    expect(depth).toBeLessThanOrEqual(3);
  });

  it('splits a type list into anyOf, each type with its own keywords', () => {
    expect(
      property({ type: ['string', 'array', 'null'], items: { type: 'string' }, maxLength: 5, format: 'date-time', description: 'd' }),
    ).toEqual({
      description: 'd',
      nullable: true,
      anyOf: [
        { type: 'string', maxLength: 5, format: 'date-time' },
        { type: 'array', items: { type: 'string' } },
      ],
    });
  });

  it('merges allOf members into their parent', () => {
    const out = fieldsOnly({
      type: 'object',
      properties: {
        p: { description: 'x', allOf: [{ $ref: '#/$defs/Base' }, { properties: { b: { type: 'number' } }, required: ['b'] }] },
      },
      $defs: { Base: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] } },
    });
    expect((out['properties'] as Record<string, unknown>)['p']).toEqual({
      description: 'x',
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
  });

  it('keeps enum only as strings on a string; other enum and const values move to the description', () => {
    expect(property({ enum: ['a', 'b', null] })).toEqual({ type: 'string', enum: ['a', 'b'], nullable: true });
    expect(property({ type: 'integer', enum: [0, 1, 2], description: 'Level' })).toEqual({
      type: 'integer',
      description: 'Level (one of: 0, 1, 2)',
    });
    expect(property({ enum: [1, 2.5] })).toEqual({ type: 'number', description: 'one of: 1, 2.5' });
    expect(property({ type: 'boolean', const: true })).toEqual({ type: 'boolean', description: 'must be true' });
    expect(property({ const: 3 })).toEqual({ type: 'integer', description: 'must be 3' });
    expect(property({ type: 'string', format: 'enum', enum: ['x'] })).toEqual({ type: 'string', format: 'enum', enum: ['x'] });
  });

  it('turns exclusive bounds into minimum and maximum: exact for integers, with a note for numbers', () => {
    expect(property({ type: 'number', exclusiveMinimum: 0 })).toEqual({ type: 'number', minimum: 0, description: 'greater than 0' });
    expect(property({ type: 'integer', minimum: 5, exclusiveMinimum: true, exclusiveMaximum: 10 })).toEqual({
      type: 'integer',
      minimum: 6,
      maximum: 9,
    });
    expect(property({ type: 'number', minimum: 3, exclusiveMinimum: 1 })).toEqual({ type: 'number', minimum: 3 });
  });

  it('keeps type or anyOf, never both', () => {
    const properties = { a: { type: 'string' }, b: { type: 'string' } };
    expect(property({ type: 'object', properties, anyOf: [{ required: ['a'] }, { required: ['b'] }] })).toEqual({
      type: 'object',
      properties,
    });
    // One member is the same as allOf: merged.
    expect(property({ type: 'object', properties, anyOf: [{ required: ['a'] }] })).toEqual({ type: 'object', properties, required: ['a'] });
    expect(property({ type: 'string', anyOf: [{ maxLength: 3 }, { pattern: '^x' }] })).toEqual({
      anyOf: [
        { type: 'string', maxLength: 3 },
        { type: 'string', pattern: '^x' },
      ],
    });
  });

  it('keeps the root one object: a root union beside type object is merged', () => {
    expect(
      fieldsOnly({
        type: 'object',
        anyOf: [
          { properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'number' } }, required: ['a', 'b'] },
        ],
      }),
    ).toEqual({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] });
  });

  it('maps examples to example', () => {
    expect(property({ type: 'string', examples: ['x', 'y'] })).toEqual({ type: 'string', example: 'x' });
  });

  it('drops what the API cannot read: tuple items, unknown types, bad counts; required names only kept properties', () => {
    const dropped: DroppedSchemaKeyword[] = [];
    expect(property({ type: 'array', items: [{ type: 'string' }] })).toEqual({ type: 'array', items: { type: 'string' } });
    expect(property({ type: 'array', items: [{ type: 'string' }, { type: 'number' }] })).toEqual({ type: 'array' });
    expect(property({ type: 'any', description: 'd' })).toEqual({ description: 'd' });
    expect(property({ type: 'string', minLength: -1, maxLength: 2.5, minItems: '3', minimum: 'x' }, dropped)).toEqual({
      type: 'string',
      minItems: '3',
    });
    expect(dropped.filter((d) => d.reason === 'invalid-value').map((d) => d.keyword)).toEqual(['minLength', 'maxLength', 'minimum']);
    const out = fieldsOnly({
      type: 'object',
      properties: { a: { type: 'string' }, b: 'not a schema', c: { type: 'number' } },
      required: ['a', 'b', 'zzz', 3],
      propertyOrdering: ['c', 'b', 'a'],
    });
    expect(out).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, c: { type: 'number' } },
      required: ['a'],
      propertyOrdering: ['c', 'a'],
    });
    expect(property({ type: 'object', required: ['x'] })).toEqual({ type: 'object' });
  });
});

describe("sanitizeSchema: gemini-json-schema (today's parametersJsonSchema)", () => {
  it('only rewrites type [X, "null"], in schema positions only; $ref, $defs, $schema, additionalProperties and defaults stay', () => {
    const input = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      additionalProperties: false,
      properties: {
        a: { type: ['null', 'string'], default: null },
        n: { $ref: '#/$defs/N' },
        d: { type: 'object', default: { type: ['string', 'null'] } },
        u: { anyOf: [{ type: 'string' }], default: 'x' },
      },
      $defs: { N: { type: ['object', 'null'], properties: { next: { $ref: '#/$defs/N' } } } },
    };
    expect(sanitizeSchema(input, { profile: 'gemini-json-schema' })).toEqual({
      ...input,
      properties: { ...input.properties, a: { type: 'string', nullable: true, default: null } },
      $defs: { N: { type: 'object', nullable: true, properties: { next: { $ref: '#/$defs/N' } } } },
    });
  });
});

describe('sanitizeSchema: openai-strict', () => {
  const strict = (schema: unknown, onDrop?: (d: DroppedSchemaKeyword) => void) =>
    sanitizeSchema(schema, { profile: 'openai-strict', onDrop });

  it('closes every object, requires every property and makes optional ones nullable', () => {
    const out = strict({
      type: 'object',
      properties: {
        name: { type: 'string' },
        size: { type: 'integer' },
        mode: { type: 'string', enum: ['a', 'b'] },
        level: { enum: [1, 2] },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        ref: { $ref: '#/$defs/Thing' },
        nested: { type: 'object', properties: { deep: { type: 'boolean' } } },
      },
      required: ['name'],
      $defs: { Thing: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        size: { type: ['integer', 'null'] },
        mode: { type: ['string', 'null'], enum: ['a', 'b', null] },
        level: { enum: [1, 2, null] },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
        ref: { anyOf: [{ $ref: '#/$defs/Thing' }, { type: 'null' }] },
        nested: {
          type: ['object', 'null'],
          properties: { deep: { type: ['boolean', 'null'] } },
          required: ['deep'],
          additionalProperties: false,
        },
      },
      $defs: { Thing: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], additionalProperties: false } },
      required: ['name', 'size', 'mode', 'level', 'either', 'ref', 'nested'],
      additionalProperties: false,
    });
  });

  it('removes unsupported keywords and formats, and reports each one', () => {
    const dropped: DroppedSchemaKeyword[] = [];
    const out = strict(
      {
        $schema: 'x',
        type: 'object',
        properties: {
          s: { type: 'string', minLength: 1, maxLength: 5, format: 'uri', default: 'a', examples: ['b'] },
          d: { type: 'string', format: 'date-time', pattern: '^2' },
          m: { type: 'object', additionalProperties: { type: 'string' } },
          t: { type: 'array', prefixItems: [{ type: 'string' }], uniqueItems: true, minItems: 1 },
        },
        required: ['s', 'd', 'm', 't'],
        'x-vendor': { a: 1 },
      },
      (d) => dropped.push(d),
    );
    expect(out['properties']).toEqual({
      s: { type: 'string' },
      d: { type: 'string', format: 'date-time', pattern: '^2' },
      m: { type: 'object', properties: {}, required: [], additionalProperties: false },
      t: { type: 'array', minItems: 1 },
    });
    const keys = dropped.map((d) => `${d.path}:${d.keyword}:${d.reason}`);
    expect(keys).toEqual(
      expect.arrayContaining([
        ':$schema:unsupported-keyword',
        ':x-vendor:unsupported-keyword',
        '/properties/s:minLength:unsupported-keyword',
        '/properties/s:format:unsupported-format',
        '/properties/s:default:unsupported-keyword',
        '/properties/m:additionalProperties:unsupported-keyword',
        '/properties/t:prefixItems:unsupported-keyword',
        '/properties/t:uniqueItems:unsupported-keyword',
      ]),
    );
  });

  it('turns oneOf into anyOf and merges allOf members (inline and $ref) into the parent', () => {
    const out = strict({
      type: 'object',
      properties: {
        pick: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        both: { allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { $ref: '#/$defs/B' }] },
      },
      required: ['pick', 'both'],
      $defs: { B: { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] } },
    });
    const properties = out['properties'] as Record<string, unknown>;
    expect(properties['pick']).toEqual({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
    expect(properties['both']).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
  });

  it('narrows unconstrained schemas and removes false schemas', () => {
    const out = strict({
      type: 'object',
      properties: { any: {}, yes: true, no: false, list: { type: 'array', items: {} } },
      required: ['any', 'yes', 'no', 'list'],
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        any: { type: ['string', 'number', 'boolean', 'null'] },
        yes: { type: ['string', 'number', 'boolean', 'null'] },
        list: { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } },
      },
      required: ['any', 'yes', 'list'],
      additionalProperties: false,
    });
  });

  it('keeps a recursive allOf $ref (pydantic v1 style) as a $ref instead of merging it without end', () => {
    const dropped: DroppedSchemaKeyword[] = [];
    const input = deepFreeze({
      type: 'object',
      properties: { root: { $ref: '#/definitions/Node' } },
      required: ['root'],
      definitions: {
        Node: {
          type: 'object',
          properties: { name: { type: 'string' }, child: { title: 'Child', allOf: [{ $ref: '#/definitions/Node' }] } },
          required: ['name'],
        },
      },
    });
    const out = sanitizeSchema(input, { profile: 'openai-strict', maxNodes: 10_000, onDrop: (d) => dropped.push(d) });
    const node = (out['definitions'] as Record<string, Record<string, unknown>>)['Node']!;
    expect((node['properties'] as Record<string, unknown>)['child']).toEqual({
      anyOf: [{ title: 'Child', $ref: '#/definitions/Node' }, { type: 'null' }],
    });
    expect(dropped.filter((d) => d.reason === 'not-merged')).toEqual([]);
  });

  it('resolves a root $ref and never follows recursive refs', () => {
    const out = strict({
      $ref: '#/$defs/Node',
      $defs: { Node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/Node' } } }, required: ['kids'] } },
    });
    expect(out['type']).toBe('object');
    expect(out['required']).toEqual(['kids']);
    expect((out['$defs'] as Record<string, unknown>)['Node']).toEqual({
      type: 'object',
      properties: { kids: { type: 'array', items: { $ref: '#/$defs/Node' } } },
      required: ['kids'],
      additionalProperties: false,
    });
  });
});

describe('sanitizeSchema: anthropic and none', () => {
  it('anthropic keeps the schema but makes the root an object schema', () => {
    const input = {
      $schema: 'x',
      type: 'object',
      additionalProperties: false,
      properties: { a: { $ref: '#/$defs/A' } },
      $defs: { A: { type: 'string', default: 'z', anyOf: [{ minLength: 1 }] } },
    };
    expect(sanitizeSchema(input, { profile: 'anthropic' })).toEqual(input);
    expect(
      sanitizeSchema(
        {
          oneOf: [
            { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] },
            { type: 'object', properties: { y: { type: 'string' } }, required: ['y'] },
          ],
        },
        { profile: 'anthropic' },
      ),
    ).toEqual({
      type: 'object',
      properties: { x: { type: 'string' }, y: { type: 'string' } },
    });
    expect(sanitizeSchema({ type: 'array' }, { profile: 'anthropic' })).toEqual({ type: 'object', properties: {} });
  });

  it('none returns an equal, independent copy', () => {
    const input = { type: 'string', $schema: 'x', anyOf: [{ type: ['string', 'null'] }], default: 1 };
    const out = sanitizeSchema(input, { profile: 'none' });
    expect(out).toEqual(input);
    expect(out['anyOf']).not.toBe(input.anyOf);
  });
});
