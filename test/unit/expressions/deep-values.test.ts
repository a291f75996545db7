/** Values nested far deeper than the native recursion allows: compared, interpolated and printed without overflowing the stack. */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { compileTemplate } from '../../../src/expressions/compile-template.js';
import { evaluateCondition } from '../../../src/expressions/evaluate-condition.js';
import { parseCondition } from '../../../src/expressions/parse-condition.js';
import { renderTemplate } from '../../../src/expressions/render-template.js';
import { stringifyJson, MAX_INDENTED_DEPTH, writeJsonIteratively } from '../../../src/expressions/stringify-json.js';

/** `{"a":[{"a":[…0…]}]}` alternating objects and arrays, `depth` levels deep, built without recursion. */
function deep(depth: number, leaf: unknown = 0): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

function deepText(depth: number, leaf = '0'): string {
  let open = '';
  let close = '';
  for (let i = depth - 1; i >= 0; i--) {
    open += i % 2 === 0 ? '[' : '{"a":';
    close = (i % 2 === 0 ? ']' : '}') + close;
  }
  return `${open}${leaf}${close}`;
}

describe('deep values in conditions and templates', () => {
  it('compares two separately built 50,000-deep values', () => {
    const ctx = { inputs: { x: deep(50_000), y: deep(50_000), z: deep(50_000, 1) }, steps: {} };
    expect(evaluateCondition(parseCondition('$inputs.x == $inputs.y'), ctx)).toBe(true);
    expect(evaluateCondition(parseCondition('$inputs.x == $inputs.z'), ctx)).toBe(false);
    expect(evaluateCondition(parseCondition('$inputs.x != $inputs.z'), ctx)).toBe(true);
  });

  it('interpolates a 50,000-deep value as JSON text', () => {
    const out = renderTemplate(compileTemplate('v={$inputs.x}'), { inputs: { x: deep(50_000) }, steps: {} });
    expect(out).toBe(`v=${deepText(50_000)}`);
  });
});

describe('stringifyJson', () => {
  it('writes a 50,000-deep value compactly, as JSON.parse reads it back', () => {
    const text = deepText(50_000);
    expect(stringifyJson(JSON.parse(text))).toBe(text);
  });

  it('indents the first levels of a value too deep for JSON.stringify, and writes the rest compactly', () => {
    const text = stringifyJson(deep(50_000), undefined, 2) as string;
    expect(text.startsWith('{\n  "a": [\n    {\n      "a": [')).toBe(true);
    const lines = text.split('\n');
    expect(lines.length).toBe(2 * MAX_INDENTED_DEPTH + 1);
    // Level 1000 holds the rest on one line, without indentation inside it.
    expect(lines[MAX_INDENTED_DEPTH]!.trimStart().startsWith('{"a":[{"a":[')).toBe(true);
    expect(stringifyJson(JSON.parse(text))).toBe(deepText(50_000));
  });

  it('applies toJSON and the replacer at any depth, as JSON.stringify does', () => {
    const value = deep(50_000, Buffer.from('hi'));
    const replacer = (_key: string, v: unknown) => (v && typeof v === 'object' && (v as { type?: string }).type === 'Buffer' ? 'base64!' : v);
    expect(stringifyJson(value, replacer)).toBe(deepText(50_000, '"base64!"'));
  });

  it('throws what JSON.stringify throws for a cycle', () => {
    let cyclic: Record<string, unknown> = {};
    const root = cyclic;
    for (let i = 0; i < 50_000; i++) cyclic = (cyclic.a = {}) as Record<string, unknown>;
    cyclic.a = root;
    expect(() => stringifyJson(root)).toThrow(TypeError);
  });

  it('writes the same text as JSON.stringify for any JSON value, compact or indented', () => {
    const holey = fc.record({ u: fc.constant(undefined), f: fc.constant(() => 1), n: fc.constant(Number.NaN), list: fc.constant([undefined, () => 1]) });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), holey), fc.constantFrom(undefined, 0, 2, 4), (value, indent) => {
        expect(writeJsonIteratively(value, undefined, indent)).toBe(JSON.stringify(value, undefined, indent));
      }),
      { numRuns: 300 },
    );
  });
});
