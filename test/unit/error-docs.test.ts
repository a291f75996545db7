/**
 * docs/errors.md lists every error code, generated from ERROR_CODES (src/errors/error-codes.ts).
 * Regenerate the table with `UPDATE_DOCS=1 npm test -- test/unit/error-docs`.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { ERROR_CODES, type ErrorCode } from '../../src/errors/error-codes.js';

const DOC = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/errors.md');
const BEGIN = '<!-- error codes: generated from src/errors/error-codes.ts; do not edit by hand -->';
const END = '<!-- end of error codes -->';

/** The table of docs/errors.md: one row per code, in the order of ERROR_CODES. */
function codeTable(): string {
  const rows = (Object.keys(ERROR_CODES) as ErrorCode[]).map((code) => {
    const { kind, when } = ERROR_CODES[code];
    return `| \`${code}\` | ${kind} | ${exitCodeFor(kind)} | ${when} |`;
  });
  return ['| Code | Kind | Exit | When |', '|---|---|---|---|', ...rows].join('\n');
}

describe('docs/errors.md', () => {
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);

  it('holds the generated table of every error code', () => {
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const generated = `${BEGIN}\n${codeTable()}\n${END}`;
    if (process.env.UPDATE_DOCS === '1') writeFileSync(DOC, text.slice(0, start) + generated + text.slice(end + END.length));
    else expect(text.slice(start, end + END.length)).toBe(generated);
  });

  it('names every code of the ErrorCode union', () => {
    const missing = Object.keys(ERROR_CODES).filter((code) => !text.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});
