/**
 * The fast parse (JSON.parse / js-yaml) must build exactly what the `yaml` path builds, or decline.
 * Every document fixture goes through both paths; generated and mutated documents check the rest.
 */
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { buildModel } from '../../../src/arazzo/build-model.js';
import { ArazzoLoadError } from '../../../src/arazzo/errors.js';
import type { LoadedDocument } from '../../../src/arazzo/model.js';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { validateDocument } from '../../../src/arazzo/validate-document.js';
import { parseFast } from '../../../src/arazzo/parse-fast.js';
import { parseWithYaml } from '../../../src/arazzo/parse-with-yaml.js';
import { sameValue } from './same-value.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
// Every fixture, the official examples included (their copy in test/fixtures/arazzo-examples), and
// never a folder beside the checkout: the number of tests must not depend on where it sits.
const DIRECTORIES = [join(ROOT, 'test', 'fixtures')];

function documentsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ya?ml|json)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const FILES = DIRECTORIES.flatMap(documentsUnder).sort();

/** What the `yaml` path makes of the text: its value, or its error message. */
function slowValue(text: string): { value: unknown } | { error: string } {
  try {
    return { value: parseWithYaml(text, 'doc.yaml', 100) };
  } catch (error) {
    if (error instanceof ArazzoLoadError) return { error: error.message };
    throw error;
  }
}

/** True when the fast parse declines or gives exactly the `yaml` value (own keys, key order, -0, NaN). */
function agrees(text: string): boolean {
  const fast = parseFast(text);
  if (fast === undefined) return true;
  const slow = slowValue(text);
  return 'value' in slow && sameValue(fast, slow.value);
}

describe('parseFast on every document fixture', () => {
  it('finds the fixtures and reads most of them on the fast path', () => {
    const fast = FILES.filter((file) => parseFast(readFileSync(file, 'utf8')) !== undefined);
    expect(FILES.length).toBeGreaterThan(100);
    expect(fast.length).toBeGreaterThan(FILES.length * 0.8);
  });

  it.each(FILES.map((file) => [relative(ROOT, file), file]))('%s: same value, model and findings on both paths', async (name, file) => {
    const text = readFileSync(file, 'utf8');
    const fast = parseFast(text);
    const slow = slowValue(text);
    if (fast === undefined) return;
    if (!('value' in slow)) throw new Error(`the fast path read a document that yaml rejects: ${slow.error}`);
    expect(sameValue(fast, slow.value)).toBe(true);

    const doc = parseDocumentText(text, name, file);
    const slowDoc: LoadedDocument = { ...doc, raw: slow.value, model: buildModel(slow.value) };
    expect(sameValue(doc.raw, fast)).toBe(true);
    expect(doc.model).toEqual(slowDoc.model);
    expect(await validateDocument(doc)).toEqual(await validateDocument(slowDoc));
  });
});

describe('parseFast: scalars and keys as the yaml library reads them', () => {
  it('resolves plain scalars with the YAML 1.2 core schema, not YAML 1.1 or js-yaml extras', () => {
    const text = 'a: [yes, no, on, off, y, True, FALSE, tRUE, ~, null, NULL, nULL, 0o17, 0x1F, -0x1F, 1_000, 0b11, +12, -0, .5, 1., 1e3, .inf, -.Inf, .NaN, 012, 2001-12-14]\n';
    const fast = parseFast(text);
    expect(fast).toEqual({ a: ['yes', 'no', 'on', 'off', 'y', true, false, 'tRUE', null, null, null, 'nULL', 15, 31, '-0x1F', '1_000', '0b11', 12, -0, 0.5, 1, 1000, Infinity, -Infinity, NaN, 12, '2001-12-14'] });
    expect(Object.is((fast?.a as unknown[])[18], -0)).toBe(true);
    expect(agrees(text)).toBe(true);
  });

  it('keeps __proto__ and toString keys as own data properties, in YAML and JSON', () => {
    for (const text of ['__proto__: {polluted: 1}\ntoString: 2\n', '{"__proto__": {"polluted": 1}, "toString": 2}']) {
      const fast = parseFast(text);
      expect(Object.getPrototypeOf(fast)).toBe(Object.prototype);
      expect(Object.keys(fast ?? {})).toEqual(['__proto__', 'toString']);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(agrees(text)).toBe(true);
    }
  });

  it.each([
    ['a duplicate YAML key', 'a: 1\na: 2\n'],
    ['a duplicate JSON key', '{"a": 1, "a": 2}'],
    ['a JSON key written twice with different escapes', '{"a": 1, "\\u0061": 2}'],
    ['an alias', 'a: &x 1\nb: *x\n'],
    ['an alias without an anchor', 'a: *x\n'],
    ['an explicit tag', 'a: !!str 1\n'],
    ['the non-specific tag on an empty value', 'a: !\n'],
    ['a %YAML directive', '%YAML 1.1\n---\na: yes\n'],
    ['a null key', 'null: 1\n'],
    ['a null key in a flow mapping', 'a: {~}\n'],
    ['a collection key', 'a: {[x]: 1}\n'],
    ['an explicit key', '? a\n: 1\n'],
    ['a multi-line quoted scalar', 'a: "x\ny"\n'],
    ['a multi-line flow collection', 'a: [x,\n  y]\n'],
    ['a comment glued to a flow collection', 'a: {}#c\n'],
    ['a lone carriage return', 'a: "x\ry"\n'],
    ['an empty sequence entry', 'a:\n -\n- b\n'],
    ['text after a document marker', '--- a: 1\n'],
    ['a tab in the indentation', 'a:\n\tb: 1\n'],
    ['a block scalar with an indentation indicator', 'a: |2\n   x\n'],
    ["a block scalar's leading blank line wider than its text", 'a:\n  k: |\n       \n   # c\n'],
    ['a line long enough for a key over 1024 characters', `${'k'.repeat(1100)}: 1\n`],
    ['a list', '- a\n'],
    ['an empty document', ''],
    ['invalid YAML', 'a: [1, 2\n'],
  ])('declines %s, leaving it to the yaml path', (_what, text) => {
    expect(parseFast(text)).toBeUndefined();
  });

  it('gives a duplicate key the yaml path\'s message and position', () => {
    const run = () => parseDocumentText('arazzo: 1.0.1\narazzo: 1.0.2\n', 'dup.yaml', '/dup.yaml');
    expect(run).toThrow(ArazzoLoadError);
    expect(run).toThrow('dup.yaml:2:1: invalid YAML: key "arazzo" appears twice in the same mapping');
  });

  it('reads JSON with a byte order mark, and multi-line plain and block scalars', () => {
    expect(parseFast('\uFEFF{"a": [1, {"b": null}]}')).toEqual({ a: [1, { b: null }] });
    const text = 'a: one\n  two\n\n  three\nb: |\n  x\n   y\nc: >-\n  p\n  q\n';
    expect(parseFast(text)).toEqual({ a: 'one two\nthree', b: 'x\n y\n', c: 'p q' });
    expect(agrees(text)).toBe(true);
  });
});

describe('parseFast against the yaml path on generated documents', () => {
  const key = fc.oneof(fc.constantFrom('a', 'name', 'null', 'true', 'yes', '1', '0x1F', '__proto__', '$ref', 'x-y', ' ', ''), fc.string({ maxLength: 6 }));
  const scalar = fc.oneof(
    fc.constantFrom('', 'null', '~', 'yes', 'on', 'True', '0o17', '-0x1', '1_000', '.inf', '12', '1.50', '$statusCode == 200', 'a: b', 'a #b', '- x', '&a', '*a', '!x', "it's", '"q"', 'x\ny', 'tab\there', '\r\n', '{$inputs.id}#/a'),
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
  );
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 4 })),
  })).node;
  const options = fc.record({
    defaultStringType: fc.constantFrom('PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE', 'BLOCK_LITERAL', 'BLOCK_FOLDED'),
    lineWidth: fc.constantFrom(0, 20, 80),
    collectionStyle: fc.constantFrom('any', 'block', 'flow'),
    indent: fc.integer({ min: 1, max: 4 }),
    indentSeq: fc.boolean(),
  } as const);
  const document = fc
    .tuple(fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 }), options, fc.boolean())
    .map(([doc, opts, json]) => (json ? JSON.stringify(doc, null, opts.indent) : stringify(doc, { ...opts, minContentWidth: 0 })));

  it('reads what yaml.stringify and JSON.stringify write exactly as the yaml path does', () => {
    fc.assert(fc.property(document, (text) => agrees(text)), { numRuns: 300 });
  });

  it('never reads a damaged document differently from the yaml path', () => {
    const edit = fc.tuple(fc.nat(), fc.nat({ max: 3 }), fc.constantFrom(' ', '\n', '\t', ':', '-', '?', '#', '&', '*', '!', '|', '>', "'", '"', '[', ']', '{', '}', ',', '~', '\r', '---', '? ', ': ', '- ', ' #'));
    const damaged = fc.tuple(document, fc.array(edit, { minLength: 1, maxLength: 3 })).map(([text, edits]) =>
      edits.reduce((t, [at, kind, piece]) => {
        const i = at % (t.length + 1);
        return kind === 0 ? t.slice(0, i) + t.slice(i + 1) : t.slice(0, i) + piece + t.slice(i + (kind === 1 ? 1 : 0));
      }, text),
    );
    fc.assert(fc.property(damaged, (text) => agrees(text)), { numRuns: 500 });
  });
});
