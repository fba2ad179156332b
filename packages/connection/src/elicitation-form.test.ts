import { describe, expect, it } from 'vitest';
import { applyElicitationDefaults, describeElicitationForm } from './elicitation-form.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30, minimum: 0 },
    status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
    verified: { type: 'boolean', default: true },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] },
    note: { type: 'string', maxLength: 10 },
  },
  required: ['note'],
};

describe('applyElicitationDefaults', () => {
  it('fills omitted fields, keeps given ones and never mutates', () => {
    const content = { name: 'Ada', verified: false };
    const filled = applyElicitationDefaults(schema, content);
    expect(filled).toEqual({ name: 'Ada', verified: false, age: 30, status: 'active', tags: ['a'] });
    expect(content).toEqual({ name: 'Ada', verified: false });
    (filled.tags as string[]).push('b');
    expect(schema.properties.tags.default).toEqual(['a']);
  });
});

describe('describeElicitationForm', () => {
  it('normalises primitives and enums', () => {
    const fields = describeElicitationForm(schema);
    expect(fields.map((field) => field.kind)).toEqual(['string', 'integer', 'single-select', 'boolean', 'multi-select', 'string']);
    expect(fields[1]).toMatchObject({ minimum: 0, default: 30, required: false });
    expect(fields[2]?.options).toEqual([
      { value: 'active', label: 'active' },
      { value: 'inactive', label: 'inactive' },
    ]);
    expect(fields[5]).toMatchObject({ name: 'note', required: true, maximum: 10 });
  });
});
