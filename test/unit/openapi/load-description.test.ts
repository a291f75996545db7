import { describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DescriptionError } from '../../../src/openapi/errors.js';
import { loadDescription } from '../../../src/openapi/load-description.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/openapi');
const arazzoFile = join(fixtures, 'flow.arazzo.yaml'); // only its directory matters

/** A fetcher serving fixed texts and recording what was asked for. */
function fakeFetch(pages: Record<string, string>) {
  const asked: string[] = [];
  const fetchText = async (url: string): Promise<string> => {
    asked.push(url);
    const page = pages[url];
    if (page === undefined) throw new Error(`HTTP 404 for ${url}`);
    return page;
  };
  return { fetchText, asked };
}

async function failure(promise: Promise<unknown>): Promise<DescriptionError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DescriptionError) return err;
    throw err;
  }
  throw new Error('expected a DescriptionError');
}

const noFetch = fakeFetch({}).fetchText;

describe('loadDescription', () => {
  it('reads a path relative to the Arazzo document and reports its absolute location', async () => {
    const description = await loadDescription('./split/main.yaml', { baseFile: arazzoFile, fetchText: noFetch });
    expect(description.location).toBe(join(fixtures, 'split/main.yaml'));
    expect(description.operations.get('listItems')?.parameters[0]?.name).toBe('limit');
  });

  it('reads an absolute path and a file:// URL', async () => {
    const absolute = join(fixtures, 'petstore.yaml');
    const byPath = await loadDescription(absolute, { baseFile: arazzoFile, fetchText: noFetch });
    const byUrl = await loadDescription(pathToFileURL(absolute).href, { baseFile: arazzoFile, fetchText: noFetch });
    expect(byPath.operations.has('getPet')).toBe(true);
    expect(byUrl.location).toBe(absolute);
  });

  it('fetches an http(s) description through fetchText and resolves its relative servers and $refs against the URL', async () => {
    const main = (await readFile(join(fixtures, 'split/main.yaml'), 'utf8')).replace('paths:', 'servers: [{url: /api}]\npaths:');
    const common = await readFile(join(fixtures, 'split/common.yaml'), 'utf8');
    const { fetchText, asked } = fakeFetch({
      'https://specs.example.com/v2/main.yaml': main,
      'https://specs.example.com/v2/common.yaml': common,
    });
    const description = await loadDescription('https://specs.example.com/v2/main.yaml', { baseFile: arazzoFile, fetchText });
    expect(asked).toEqual(['https://specs.example.com/v2/main.yaml', 'https://specs.example.com/v2/common.yaml']);
    expect(description.servers).toEqual(['https://specs.example.com/api']);
    expect(description.operations.get('listItems')?.parameters[0]).toMatchObject({ name: 'limit', in: 'query' });
  });

  it('resolves a relative location against an Arazzo document that was itself fetched', async () => {
    const text = 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths: {}\n';
    const { fetchText, asked } = fakeFetch({ 'https://example.com/flows/api.yaml': text });
    const description = await loadDescription('api.yaml', { baseFile: 'https://example.com/flows/flow.arazzo.yaml', fetchText });
    expect(asked).toEqual(['https://example.com/flows/api.yaml']);
    expect(description.location).toBe('https://example.com/flows/api.yaml');
  });

  it('does not let a remote description read local files', async () => {
    const text = `openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      operationId: a\n      parameters:\n        - $ref: '${pathToFileURL(join(fixtures, 'split/common.yaml')).href}#/components/parameters/Limit'\n`;
    const { fetchText } = fakeFetch({ 'https://example.com/api.yaml': text });
    const err = await failure(loadDescription('https://example.com/api.yaml', { baseFile: arazzoFile, fetchText }));
    expect(err.code).toBe('DESCRIPTION_REF');
    expect(err.message).toContain('a remote description may not refer to local files');
  });

  it('reports a missing file as DESCRIPTION_UNREADABLE with its resolved path', async () => {
    const err = await failure(loadDescription('missing.yaml', { baseFile: arazzoFile, fetchText: noFetch }));
    expect(err.code).toBe('DESCRIPTION_UNREADABLE');
    expect(err.location).toBe(join(fixtures, 'missing.yaml'));
    expect(err.message).toBe(`${join(fixtures, 'missing.yaml')}: cannot read the description: file not found; check the source description url (relative paths start from the Arazzo document's folder)`);
  });

  it('reports a failed fetch as DESCRIPTION_UNREADABLE naming the URL', async () => {
    const err = await failure(loadDescription('http://127.0.0.1:9/api.yaml', { baseFile: arazzoFile, fetchText: noFetch }));
    expect(err.code).toBe('DESCRIPTION_UNREADABLE');
    expect(err.message).toBe('http://127.0.0.1:9/api.yaml: cannot fetch the description: HTTP 404 for http://127.0.0.1:9/api.yaml; check the URL and your network');
  });

  it('reports a failed fetch of a remote $ref target with the fetcher\'s reason', async () => {
    const text = "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      operationId: a\n      parameters:\n        - $ref: 'common.yaml#/components/parameters/Limit'\n";
    const { fetchText } = fakeFetch({ 'https://example.com/api.yaml': text });
    const err = await failure(loadDescription('https://example.com/api.yaml', { baseFile: arazzoFile, fetchText }));
    expect(err.code).toBe('DESCRIPTION_REF');
    expect(err.message).toBe(
      'https://example.com/api.yaml: cannot fetch $ref target https://example.com/common.yaml: HTTP 404 for https://example.com/common.yaml; check the URL and your network',
    );
  });

  it('rejects URL schemes other than file and http(s)', async () => {
    const err = await failure(loadDescription('ftp://example.com/api.yaml', { baseFile: arazzoFile, fetchText: noFetch }));
    expect(err.code).toBe('DESCRIPTION_UNREADABLE');
    expect(err.message).toContain('unsupported URL scheme');
  });

  it('reports a $ref to a missing component with the file and pointer of the $ref', async () => {
    const err = await failure(loadDescription('split/broken-ref.yaml', { baseFile: arazzoFile, fetchText: noFetch }));
    expect(err.message).toBe(
      `${join(fixtures, 'split/broken-ref.yaml')}#/paths/~1items/get/parameters/0: $ref target ${join(fixtures, 'split/common.yaml')}#/components/parameters/Offset does not exist (no "Offset" in #/components/parameters); check the referenced file path and JSON pointer`,
    );
  });

  it('reports a syntax error in a referenced file with that file\'s line and column', async () => {
    const err = await failure(loadDescription('split/ref-to-malformed.yaml', { baseFile: arazzoFile, fetchText: noFetch }));
    expect(err.code).toBe('DESCRIPTION_REF');
    expect(err.message).toMatch(new RegExp(`: a \\$ref target does not parse: ${join(fixtures, 'malformed.yaml')}:9:\\d+: YAML syntax error`));
  });
});
