/**
 * Load → validate → plan is written once (issue 22): run, replay, validate and graph reach
 * src/plan/prepare-document.ts through their imports (static or import(); replay, validate and
 * graph through their action in src/cli/actions/), and no other module loads or validates the
 * document a command is given.
 */
import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PREPARE = 'src/plan/prepare-document.ts';
const IMPORT = /(?:^|[\s;])(import|export)(\s+type)?\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** The repository files a module imports for their values (type-only imports erase), static or with import(). */
function importsOf(path: string): string[] {
  const text = readFileSync(join(ROOT, path), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  return [...text.matchAll(IMPORT)]
    .filter((m) => m[2] === undefined && !/typeof\s+$/.test(text.slice(0, m.index)))
    .map((m) => (m[3] ?? m[4]) as string)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(ROOT, resolve(ROOT, dirname(path), specifier)).split('\\').join('/').replace(/\.js$/, '.ts'));
}

function reaches(from: string, wanted: string): boolean {
  const seen = new Set<string>();
  const pending = [from];
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (path === wanted) return true;
    if (seen.has(path) || !path.startsWith('src/')) continue;
    seen.add(path);
    pending.push(...importsOf(path));
  }
  return false;
}

function tsFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('one preparation of the document', () => {
  it.each(['src/cli/run-command.ts', 'src/cli/test-command.ts', 'src/cli/replay-command.ts', 'src/cli/validate-command.ts', 'src/cli/graph-command.ts', 'src/cli/actions/replay.ts', 'src/cli/actions/validate.ts', 'src/cli/actions/graph.ts'])('is reached from %s', (command) => {
    expect(reaches(command, PREPARE)).toBe(true);
  });

  it('is not reached from a command that reads no workflow document (the walk is not vacuous)', () => {
    expect(reaches('src/cli/version-command.ts', PREPARE)).toBe(false);
  });

  it('is the only module that loads a command’s document, and the only one that validates it besides the v2 run’s Arazzo sources', () => {
    const importers = (module: string) => tsFiles('src').filter((path) => importsOf(path).includes(module));
    expect(importers('src/arazzo/load-document.ts')).toEqual([PREPARE]);
    // run-documents.ts validates the Arazzo source documents a v2 run reaches, not the command's document.
    expect(importers('src/arazzo/validate-document.ts').sort()).toEqual([PREPARE, 'src/plan/run-documents.ts']);
  });
});
