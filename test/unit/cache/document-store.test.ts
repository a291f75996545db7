/** Parsed Arazzo documents on disk: a second load of the same text reads the stored value instead of parsing. */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDocument, type ParsedDocuments } from '../../../src/arazzo/load-document.js';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import type { RawObject } from '../../../src/arazzo/read-fields.js';
import { DOCUMENT_FORMAT, documentStore, documentStoreDir, openDocumentStore } from '../../../src/cache/document-store.js';
import { evictEntries } from '../../../src/cache/evict-entries.js';
import { sha256 } from '../../../src/cache/sha256.js';
import { VERSION } from '../../../src/version.js';

let home: string;
let dir: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'tool-documents-'));
  dir = join(home, 'documents');
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const DOCUMENT = `arazzo: 1.0.1
info:
  title: Stored
  version: '1'
sourceDescriptions:
  - name: api
    url: ./api.yaml
workflows:
  - workflowId: wf
    steps:
      - stepId: one
        operationId: getThing
        successCriteria:
          - condition: $statusCode == 200
`;

/** A store that counts its reads and writes, over a real folder. */
function countingStore(inner: ParsedDocuments): ParsedDocuments & { reads: number; hits: number; writes: number } {
  const counted = {
    reads: 0,
    hits: 0,
    writes: 0,
    async read(text: string) {
      counted.reads++;
      const value = await inner.read(text);
      if (value !== undefined) counted.hits++;
      return value;
    },
    async write(text: string, value: RawObject) {
      counted.writes++;
      await inner.write(text, value);
    },
  };
  return counted;
}

describe('documentStore', () => {
  it('gives back exactly the value stored for a text, in a file named by its hash, and nothing for another text', async () => {
    const store = documentStore(dir);
    const value = JSON.parse('{"arazzo":"1.0.1","__proto__":{"a":1},"list":[1,2.5,"é ☃ \\u2028",null,true,{"deep":[[]]}],"empty":{}}') as RawObject;
    await store.write('text', value);
    expect(readdirSync(dir)).toEqual([`${sha256('text')}.json`]);
    const back = await documentStore(dir).read('text');
    expect(back).toEqual(value);
    expect(Object.keys(back!)).toEqual(Object.keys(value));
    expect(Object.prototype.hasOwnProperty.call(back, '__proto__')).toBe(true);
    expect(await store.read('other text')).toBeUndefined();
  });

  it('treats a damaged or foreign file as a miss: cut short, not JSON, another format, another tool version, another hash, not a mapping', async () => {
    const store = documentStore(dir);
    const hash = sha256('text');
    await store.write('text', { a: 1 });
    const file = join(dir, `${hash}.json`);
    const good = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(good).toEqual({ format: DOCUMENT_FORMAT, tool: VERSION, textHash: hash, value: { a: 1 } });
    const variants = [
      readFileSync(file, 'utf8').slice(0, 20),
      'not json',
      JSON.stringify({ ...good, format: DOCUMENT_FORMAT + 1 }),
      JSON.stringify({ ...good, tool: '0.0.0-other' }),
      JSON.stringify({ ...good, textHash: sha256('another') }),
      JSON.stringify({ ...good, value: [1, 2] }),
      JSON.stringify({ ...good, value: null }),
    ];
    for (const text of variants) {
      writeFileSync(file, text);
      expect(await store.read('text')).toBeUndefined();
    }
  });

  it('stores no value that JSON cannot carry exactly (NaN, Infinity, -0, what yaml builds for tagged values)', async () => {
    const store = documentStore(dir);
    for (const [i, odd] of [Number.NaN, Number.POSITIVE_INFINITY, -0, Buffer.from('x'), new Date(0), new Set([1]), new Map([[1, 2]])].entries()) {
      await store.write(`text ${i}`, { a: { b: [odd] } });
      expect(await store.read(`text ${i}`)).toBeUndefined();
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('writes 0600 files, and makes every missing folder from the cache home down 0700', async () => {
    const store = openDocumentStore({ HOME: home })!;
    await store.write('text', { a: 1 });
    const tool = join(home, '.cache', 'tool');
    for (const folder of [join(home, '.cache'), tool, join(tool, 'descriptions'), join(tool, 'descriptions', 'documents')]) expect([folder, statSync(folder).mode & 0o777]).toEqual([folder, 0o700]);
    expect(statSync(join(tool, 'descriptions', 'documents', `${sha256('text')}.json`)).mode & 0o777).toBe(0o600);
    expect(await store.read('text')).toEqual({ a: 1 });
  });

  it('narrows a 0755 folder of its own to 0700 when it writes, as tool does with its folders', async () => {
    mkdirSync(join(home, 'tool', 'descriptions'), { recursive: true, mode: 0o755 });
    chmodSync(join(home, 'tool'), 0o755);
    chmodSync(join(home, 'tool', 'descriptions'), 0o755);
    const store = documentStore(join(home, 'tool', 'descriptions', 'documents'), { root: join(home, 'tool') });
    expect(await store.read('text')).toBeUndefined();
    await store.write('text', { a: 1 });
    expect(statSync(join(home, 'tool')).mode & 0o777).toBe(0o700);
    expect(statSync(join(home, 'tool', 'descriptions')).mode & 0o777).toBe(0o700);
    expect(await store.read('text')).toEqual({ a: 1 });
  });

  it('writes nothing into a folder whose owner may not write (0500), for root too, and still reads from it', async () => {
    const descriptions = join(home, 'tool', 'descriptions');
    const store = documentStore(documentStoreDir(descriptions), { root: join(home, 'tool') });
    await store.write('kept', { a: 1 });
    chmodSync(descriptions, 0o500);
    try {
      await store.write('text', { a: 2 });
      expect(readdirSync(documentStoreDir(descriptions))).toEqual([`${sha256('kept')}.json`]);
      expect(statSync(descriptions).mode & 0o777).toBe(0o500);
      expect(await store.read('kept')).toEqual({ a: 1 });
    } finally {
      chmodSync(descriptions, 0o700);
    }
  });

  it('neither reads from nor writes to a folder that group or others may write', async () => {
    const descriptions = join(home, 'tool', 'descriptions');
    const store = documentStore(documentStoreDir(descriptions), { root: join(home, 'tool') });
    await store.write('planted', { a: 1 });
    chmodSync(documentStoreDir(descriptions), 0o777);
    expect(await store.read('planted')).toBeUndefined();
    await store.write('text', { a: 2 });
    expect(readdirSync(documentStoreDir(descriptions))).toEqual([`${sha256('planted')}.json`]);
    expect(statSync(documentStoreDir(descriptions)).mode & 0o777).toBe(0o777);
  });

  it('is opened under the description cache folder, and not at all without a usable cache home or with a bad size cap', () => {
    expect(openDocumentStore({ HOME: home })).toBeDefined();
    expect(documentStoreDir(join(home, 'tool', 'descriptions'))).toBe(join(home, 'tool', 'descriptions', 'documents'));
    expect(openDocumentStore({})).toBeUndefined();
    expect(openDocumentStore({ HOME: home, TOOL_CACHE_MAX_MIB: 'lots' })).toBeUndefined();
  });

  it('counts toward the cache size cap: the least recently used documents go first, never the one just written', async () => {
    const descriptions = join(home, 'descriptions');
    const store = documentStore(documentStoreDir(descriptions), { afterWrite: (files) => evictEntries(descriptions, 25 * 1024, files) });
    const big = (letter: string) => ({ text: letter.repeat(10 * 1024) });
    await store.write('a', big('a'));
    await store.write('b', big('b'));
    utimesSync(join(documentStoreDir(descriptions), `${sha256('a')}.json`), 1000, 1000);
    utimesSync(join(documentStoreDir(descriptions), `${sha256('b')}.json`), 2000, 2000);
    await store.write('c', big('c'));
    expect(await store.read('a')).toBeUndefined();
    expect(await store.read('b')).toEqual(big('b'));
    expect(await store.read('c')).toEqual(big('c'));
  });
});

describe('loadDocument with a document store', () => {
  it('reads a document with tagged values the same way every time, and does not store it', async () => {
    const file = join(home, 'tagged.arazzo.yaml');
    writeFileSync(file, `${DOCUMENT}x-when: !!timestamp 2001-12-14\nx-bytes: !!binary aGk=\nx-set: !!set { a }\n`);
    const store = countingStore(documentStore(dir));
    const first = await loadDocument(file, { cwd: home, store });
    const second = await loadDocument(file, { cwd: home, store });
    expect(second.raw).toEqual(first.raw);
    expect((second.raw as Record<string, unknown>)['x-when']).toBeInstanceOf(Date);
    expect([store.hits, existsSync(dir) ? readdirSync(dir).length : 0]).toEqual([0, 0]);
  });

  it('parses a text once: the next load of the same text reads the stored value, and gives the same document', async () => {
    const file = join(home, 'flow.arazzo.yaml');
    writeFileSync(file, DOCUMENT);
    const store = countingStore(documentStore(dir));
    const first = await loadDocument(file, { cwd: home, store });
    expect([store.reads, store.hits, store.writes]).toEqual([1, 0, 1]);
    const second = await loadDocument(file, { cwd: home, store });
    expect([store.reads, store.hits, store.writes]).toEqual([2, 1, 1]);
    const parsed = parseDocumentText(DOCUMENT, file, file);
    for (const doc of [first, second]) {
      expect(doc.raw).toEqual(parsed.raw);
      expect(doc.model).toEqual(parsed.model);
      expect(doc.text).toBe(DOCUMENT);
      expect(doc.locate('/workflows/0/steps/0/operationId')).toEqual(parsed.locate('/workflows/0/steps/0/operationId'));
    }
  });

  it('uses what is stored for the text, and parses again when the text changes', async () => {
    const file = join(home, 'flow.arazzo.yaml');
    writeFileSync(file, DOCUMENT);
    const store = documentStore(dir);
    await loadDocument(file, { cwd: home, store });
    // Proof that the second load reads the store: a value planted under the text's hash comes back.
    const planted = { ...(await store.read(DOCUMENT))!, info: { title: 'Planted', version: '1' } };
    await store.write(DOCUMENT, planted);
    expect((await loadDocument(file, { cwd: home, store })).model.info?.title).toBe('Planted');
    writeFileSync(file, DOCUMENT.replace('title: Stored', 'title: Changed'));
    expect((await loadDocument(file, { cwd: home, store })).model.info?.title).toBe('Changed');
  });

  it('stores neither a text that does not parse (its error comes every time) nor one with aliases (its value shares subtrees)', async () => {
    const store = countingStore(documentStore(dir));
    const broken = join(home, 'broken.arazzo.yaml');
    writeFileSync(broken, 'arazzo: [1.0.1\n');
    for (let i = 0; i < 2; i++) await expect(loadDocument(broken, { cwd: home, store })).rejects.toMatchObject({ code: 'YAML_SYNTAX' });
    const aliased = join(home, 'aliased.arazzo.yaml');
    writeFileSync(aliased, `${DOCUMENT}x-shared: &shared { a: 1 }\nx-again: *shared\n`);
    const doc = await loadDocument(aliased, { cwd: home, store });
    expect(doc.raw).toMatchObject({ 'x-again': { a: 1 } });
    expect(store.writes).toBe(0);
    expect(existsSync(dir)).toBe(false);
  });
});

describe('DOCUMENT_FORMAT', () => {
  it('records the parse whose values it stores: change it or yaml, and the format must change with this record', () => {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const sources = ['parse-with-yaml.ts', 'parse-document-text.ts'].map((name) => readFileSync(join(root, 'src', 'arazzo', name), 'utf8'));
    const yaml = (JSON.parse(readFileSync(join(root, 'node_modules', 'yaml', 'package.json'), 'utf8')) as { version: string }).version;
    // A stored value outlives a change to how text is read unless the format changes (src/cache/document-store.ts).
    // When this fails: bump DOCUMENT_FORMAT if the change may read some text differently, then record the new values here.
    expect({ format: DOCUMENT_FORMAT, yaml, parse: sha256(sources.join('\0')) }).toEqual({ format: 3, yaml: '2.9.1', parse: '4f124634224559ca720a8995aa7d45d679a38498bca2916dabcc682ab229471f' });
  });
});
