/**
 * The v2 libraries (json-p3, fontoxpath, @xmldom/xmldom, ajv, ajv-formats) are loaded only when a
 * document needs them: each is imported by one module, with import(), and those modules are reached
 * from the commands only through import() too, so a v1 run, a v1 validate and `tool --version` never
 * load them (docs/architecture.md#start-up).
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** The one module allowed to load each library, and only with import(). */
const LOADERS: Record<string, string> = {
  'json-p3': 'src/expressions/criterion-libraries.ts',
  fontoxpath: 'src/expressions/criterion-libraries.ts',
  '@xmldom/xmldom': 'src/expressions/criterion-libraries.ts',
  'ajv/dist/2020.js': 'src/plan/ajv-library.ts',
  'ajv/dist/ajv.js': 'src/plan/ajv-library.ts',
  'ajv-formats': 'src/plan/ajv-library.ts',
};

/** Modules that run only for v2: nothing may import them statically (type-only imports erase), but one another. */
const V2_ONLY = ['src/expressions/criterion-libraries.ts', 'src/plan/input-schema.ts', 'src/plan/ajv-library.ts', 'src/plan/json-schema-meta.generated.ts', 'src/arazzo/check-v2.ts'];

/**
 * A part of a library a v2-only module may import statically: the meta-schema validator compiled at
 * build time needs Ajv's `equal` (a few lines), and is itself loaded only by input-schema.ts.
 */
const STATIC_IN_V2_ONLY: Record<string, string> = { 'ajv/dist/runtime/equal.js': 'src/plan/json-schema-meta.generated.ts' };

function tsFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

interface Import {
  specifier: string;
  dynamic: boolean;
  typeOnly: boolean;
}

function importsOf(path: string): Import[] {
  const text = readFileSync(join(ROOT, path), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  const found: Import[] = [];
  for (const m of text.matchAll(/(?:^|[\s;])(import|export)(\s+type)?\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]/gm)) found.push({ specifier: m[3]!, dynamic: false, typeOnly: m[2] !== undefined });
  for (const m of text.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/gm)) found.push({ specifier: m[1]!, dynamic: false, typeOnly: false });
  // import('x') as a value; `typeof import('x')` in a type is erased.
  for (const m of text.matchAll(/(typeof\s+)?\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ specifier: m[2]!, dynamic: true, typeOnly: m[1] !== undefined });
  return found;
}

const files = tsFiles('src').map((path) => ({ path, imports: importsOf(path) }));

describe('lazy loading of the v2 libraries', () => {
  it('reads the sources (the rules would pass vacuously otherwise)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.find((f) => f.path === LOADERS['json-p3'])?.imports.some((i) => i.specifier === 'json-p3' && i.dynamic && !i.typeOnly)).toBe(true);
  });

  it('loads each library in one module only, with import()', () => {
    const offending = files.flatMap((file) =>
      file.imports
        .filter((i) => Object.hasOwn(LOADERS, i.specifier) || i.specifier.startsWith('ajv') || i.specifier.startsWith('@xmldom/'))
        .filter((i) => !i.typeOnly && STATIC_IN_V2_ONLY[i.specifier] !== file.path && (LOADERS[i.specifier] !== file.path || !i.dynamic))
        .map((i) => `${file.path} imports ${i.specifier}${i.dynamic ? ' (dynamic)' : ''}`),
    );
    expect(offending).toEqual([]);
  });

  it('reaches the v2-only modules through import() alone', () => {
    const offending = files.flatMap((file) =>
      file.imports
        .filter((i) => i.specifier.startsWith('.') && !i.dynamic && !i.typeOnly)
        .filter((i) => V2_ONLY.includes(relative(ROOT, resolve(ROOT, dirname(file.path), i.specifier)).replace(/\.js$/, '.ts')))
        .filter(() => !V2_ONLY.includes(file.path))
        .map((i) => `${file.path} imports ${i.specifier} statically`),
    );
    expect(offending).toEqual([]);
  });
});

/** `tool mcp serve` alone loads the MCP SDK: only src/cli/mcp/ imports it, and the command reaches that folder through import() alone. */
describe('lazy loading of the MCP SDK', () => {
  const MCP_FOLDER = 'src/cli/mcp/';
  const targetOf = (file: string, specifier: string) => relative(ROOT, resolve(ROOT, dirname(file), specifier)).replace(/\.js$/, '.ts');

  it('is imported by the server folder only', () => {
    const users = files.filter((file) => file.imports.some((i) => i.specifier.startsWith('@modelcontextprotocol/sdk')));
    expect(users.length).toBeGreaterThan(0);
    expect(users.map((file) => file.path).filter((path) => !path.startsWith(MCP_FOLDER))).toEqual([]);
  });

  it('is reached from the commands only with import()', () => {
    const offending = files
      .filter((file) => !file.path.startsWith(MCP_FOLDER))
      .flatMap((file) =>
        file.imports
          .filter((i) => i.specifier.startsWith('.') && !i.typeOnly && targetOf(file.path, i.specifier).startsWith(MCP_FOLDER))
          .filter((i) => !i.dynamic || file.path !== 'src/cli/mcp-command.ts')
          .map((i) => `${file.path} imports ${i.specifier}${i.dynamic ? ' (dynamic)' : ''}`),
      );
    expect(offending).toEqual([]);
    expect(files.find((file) => file.path === 'src/cli/mcp-command.ts')?.imports.some((i) => i.dynamic && i.specifier === './mcp/serve.js')).toBe(true);
  });
});
