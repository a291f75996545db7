/** Parses a YAML fixture (AsyncAPI documents of test/fixtures) into the JSON value readAsyncApi takes. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures');

/** The parsed YAML at a path under test/fixtures. */
export function fixture(path: string): unknown {
  return parse(readFileSync(resolve(FIXTURES, path), 'utf8')) as unknown;
}
