import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The layer rules of docs/architecture.md#layers, checked on the import graph of src/ and machines/.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface SourceFile {
  /** Path from the repository root, with forward slashes: `src/run/run-workflow.ts`. */
  path: string;
  /** The text with comments, strings and template-literal text blanked out (imports kept apart). */
  code: string;
  /** Every module specifier: static imports, `export … from`, `import type`, and `import('…')`. */
  specifiers: string[];
}

function tsFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Blanks comments and the contents of string and template literals, so `process.` in prose or a message is not code. */
export function codeOnly(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, (match) => {
    if (match.startsWith('`')) {
      // Keep `${…}` holes: code in them is code.
      return match.replace(/(`|\})([^`$]|\$(?!\{))*(?=`|\$\{)/g, (piece) => piece[0] + ' '.repeat(piece.length - 1));
    }
    return match.replace(/[^\n]/g, ' ');
  });
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[\s;])import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

function readSource(path: string): SourceFile {
  const text = readFileSync(join(ROOT, path), 'utf8');
  const specifiers = [...text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '').matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
  return { path, code: codeOnly(text), specifiers };
}

/** The repository path a relative specifier points at (`.js` written, `.ts` on disk), or undefined for a package. */
function target(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  return relative(ROOT, resolve(ROOT, dirname(from), specifier)).split('\\').join('/').replace(/\.js$/, '.ts');
}

/** The top-level folder of src/ a file belongs to (`run` for src/run/x.ts and src/run/a/b.ts); a file directly in src/ is its own. */
function layerOf(path: string): string | undefined {
  const m = /^src\/([^/]+)\//.exec(path);
  if (m) return m[1];
  return path.startsWith('src/') ? path.slice(4) : undefined;
}

/**
 * The layers, top to bottom (docs/architecture.md#layers): a folder imports only folders on lower
 * rows, never its own row or a higher one. machines/ sits beside the bottom row (it imports xstate only).
 */
const LAYERS = [
  ['bin.ts', 'bundle'],
  ['cli'],
  ['run', 'request', 'demo', 'suite'],
  ['execute'],
  ['observe'],
  ['plan', 'draw'],
  ['auth', 'cache'],
  ['config', 'openapi'],
  ['arazzo', 'async'],
  ['expressions', 'http', 'errors', 'version.ts', 'package-root.ts', 'v8-flags.ts'],
  ['output'],
];

/** The two entry points: tsc's output starts at src/bin.ts, the bundle at src/bundle/start-bundle.ts (which then runs src/bin.ts). */
const ENTRY_POINTS = ['src/bin.ts', 'src/bundle/start-bundle.ts'];

const TOUCHES_PROCESS = /(?<![\w$.])process\s*(?:\.|\[)|(?<![\w$.])globalThis\s*\.\s*process\b/;

const files = [...tsFiles('src'), ...tsFiles('machines')].map(readSource);

describe('architecture', () => {
  it('reads the import graph (the test would pass vacuously otherwise)', () => {
    expect(files.length).toBeGreaterThan(100);
    const run = files.find((f) => f.path === 'src/cli/run-command.ts');
    expect(run?.specifiers.some((s) => s.includes('run/run-workflow'))).toBe(true);
  });

  it('keeps machines/ pure: it imports xstate and itself only', () => {
    const wrong = files
      .filter((f) => f.path.startsWith('machines/'))
      .flatMap((f) => f.specifiers.filter((s) => {
        const to = target(f.path, s);
        return to === undefined ? s !== 'xstate' : !to.startsWith('machines/');
      }).map((s) => `${f.path} imports ${s}`));
    expect(wrong).toEqual([]);
  });

  it('cuts src/ along the pipeline: no folder holds more than a fifth of its lines', () => {
    const lines = new Map<string, number>();
    let total = 0;
    for (const f of files.filter((g) => g.path.startsWith('src/') && !g.path.endsWith('.generated.ts'))) {
      const count = readFileSync(join(ROOT, f.path), 'utf8').split('\n').length;
      const folder = layerOf(f.path) ?? f.path;
      lines.set(folder, (lines.get(folder) ?? 0) + count);
      total += count;
    }
    const over = [...lines].filter(([, count]) => count > total / 5).map(([folder, count]) => `src/${folder}: ${count} of ${total} lines`);
    expect(over).toEqual([]);
  });

  it('has no barrels: imports name the module that defines the name', () => {
    expect(files.filter((f) => /(^|\/)index\.ts$/.test(f.path)).map((f) => f.path)).toEqual([]);
  });

  it('lets only src/cli and src/bin.ts import src/cli', () => {
    const wrong = files
      .filter((f) => !f.path.startsWith('src/cli/') && f.path !== 'src/bin.ts')
      .flatMap((f) => f.specifiers.filter((s) => target(f.path, s)?.startsWith('src/cli/')).map((s) => `${f.path} imports ${s}`));
    expect(wrong).toEqual([]);
  });

  it('lets only src/bin.ts and the bundle\'s start touch process', () => {
    const wrong = files.filter((f) => !ENTRY_POINTS.includes(f.path)).filter((f) => f.specifiers.some((s) => s === 'node:process' || s === 'process') || TOUCHES_PROCESS.test(f.code));
    expect(wrong.map((f) => f.path)).toEqual([]);
  });

  it('tells code that touches process from comments, strings and method names', () => {
    const touches = (text: string) => TOUCHES_PROCESS.test(codeOnly(text));
    expect(touches('const env = process.env;')).toBe(true);
    expect(touches('const x = `${process.cwd()}`;')).toBe(true);
    expect(touches('// process.exit(1)\nconst s = "process.env"; cli.process(argv);')).toBe(false);
  });

  it('imports only downwards through the layers of docs/architecture.md', () => {
    const row = (folder: string) => LAYERS.findIndex((layer) => layer.includes(folder));
    const unplaced = [...new Set(files.map((f) => layerOf(f.path)))].filter((folder) => folder !== undefined && row(folder) < 0);
    expect(unplaced).toEqual([]);
    const wrong = files.flatMap((f) => {
      const from = layerOf(f.path);
      if (from === undefined) return [];
      return f.specifiers.filter((s) => {
        const to = layerOf(target(f.path, s) ?? '');
        return to !== undefined && to !== from && row(to) <= row(from);
      }).map((s) => `${f.path} imports ${s}`);
    });
    expect(wrong).toEqual([]);
  });

  it('has no import cycle between the top-level folders of src/', () => {
    const edges = new Map<string, Map<string, string>>();
    for (const f of files) {
      const from = layerOf(f.path);
      if (from === undefined) continue;
      for (const s of f.specifiers) {
        const to = layerOf(target(f.path, s) ?? '');
        if (to === undefined || to === from) continue;
        if (!edges.has(from)) edges.set(from, new Map());
        if (!edges.get(from)?.has(to)) edges.get(from)?.set(to, `${f.path} imports ${s}`);
      }
    }
    expect(folderCycles(edges)).toEqual([]);
  });

  it('has no import cycle between files either', () => {
    const edges = new Map<string, Map<string, string>>();
    for (const f of files) {
      for (const s of f.specifiers) {
        const to = target(f.path, s);
        if (to === undefined || !files.some((g) => g.path === to)) continue;
        if (!edges.has(f.path)) edges.set(f.path, new Map());
        edges.get(f.path)?.set(to, `${f.path} imports ${s}`);
      }
    }
    expect(folderCycles(edges)).toEqual([]);
  });

  it('finds a cycle through three folders, and only that one', () => {
    const graph = new Map([
      ['a', new Map([['b', 'a->b']])],
      ['b', new Map([['c', 'b->c'], ['d', 'b->d']])],
      ['c', new Map([['a', 'c->a']])],
    ]);
    expect(folderCycles(graph)).toEqual([['a->b', 'b->c', 'c->a']]);
  });
});

/**
 * The folders that import each other, directly or through others (strongly connected sets, found by
 * Tarjan's algorithm), each with one import per edge inside it so the message says what to move.
 */
function folderCycles(edges: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const sets: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const set: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      set.push(member);
    } while (member !== node);
    if (set.length > 1) sets.push(set);
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return sets.map((set) => set.flatMap((from) => [...(edges.get(from) ?? [])].filter(([to]) => set.includes(to)).map(([, example]) => example)).sort());
}
