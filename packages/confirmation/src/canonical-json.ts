type Frame = { text: string } | { value: unknown } | { exit: object };

/**
 * JSON with object keys sorted (by UTF-16 code units) at every level, no whitespace: the same
 * data always gives the same string, whatever the key order. `undefined` and functions are
 * left out of objects and become `null` in arrays, as in `JSON.stringify`. Iterative, so
 * deep trees do not overflow the stack; a cyclic object throws a `TypeError`.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, { d: null, c: 'x' }] }); // '{"a":[true,{"c":"x","d":null}],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const open = new Set<object>();
  const stack: Frame[] = [{ value }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if ('text' in frame) {
      out.push(frame.text);
      continue;
    }
    if ('exit' in frame) {
      open.delete(frame.exit);
      continue;
    }
    const current = frame.value;
    if (current === undefined || typeof current === 'function' || typeof current === 'symbol') {
      out.push('null');
      continue;
    }
    if (typeof current !== 'object' || current === null) {
      out.push(typeof current === 'bigint' ? current.toString() : JSON.stringify(current));
      continue;
    }
    if (open.has(current)) throw new TypeError('canonicalJson: the value contains a cycle');
    open.add(current);
    stack.push({ exit: current });
    if (Array.isArray(current)) {
      stack.push({ text: ']' });
      for (let index = current.length - 1; index >= 0; index--) {
        stack.push({ value: current[index] });
        if (index > 0) stack.push({ text: ',' });
      }
      stack.push({ text: '[' });
      continue;
    }
    const record = current as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined && typeof record[key] !== 'function' && typeof record[key] !== 'symbol')
      .sort();
    stack.push({ text: '}' });
    for (let index = keys.length - 1; index >= 0; index--) {
      const key = keys[index]!;
      stack.push({ value: record[key] });
      stack.push({ text: `${index > 0 ? ',' : ''}${JSON.stringify(key)}:` });
    }
    stack.push({ text: '{' });
  }
  return out.join('');
}
