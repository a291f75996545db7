/**
 * The report modules (src/observe/report/) load only when --report, --har, --junit or `arazzo
 * replay` asks for them: every import of them from outside their folder is import() or
 * type-only, so a run without those flags (the bench's) loads none of their code.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const FOLDER = 'src/observe/report/';

function tsFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Static value imports (not `import type`) of each file: their repository paths. */
function staticImports(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  return [...text.matchAll(/(?:^|[\s;])(?:import|export)(\s+type)?\s[^'"]*?\sfrom\s*['"](\.[^'"]+)['"]/gm)]
    .filter((m) => m[1] === undefined)
    .map((m) => relative(ROOT, resolve(ROOT, dirname(path), m[2]!)).split('\\').join('/').replace(/\.js$/, '.ts'));
}

describe('lazy loading of the report modules', () => {
  const files = tsFiles('src').filter((path) => !path.startsWith(FOLDER));

  it('reads the sources (the rule would pass vacuously otherwise)', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(readFileSync(join(ROOT, 'src/run/run-workflow.ts'), 'utf8')).toContain("import('../observe/report/run-reports.js')");
  });

  it('is imported from outside its folder only with import() or import type', () => {
    const offending = files.flatMap((path) => staticImports(path).filter((target) => target.startsWith(FOLDER)).map((target) => `${path} imports ${target}`));
    expect(offending).toEqual([]);
  });
});
