/**
 * Makes sure dist/ holds a build of the current sources before an end-to-end test spawns the real
 * binary. Builds at most once per process, and a lock directory keeps parallel jest workers from
 * running two compilers at once (the second waits, then finds dist up to date). The build is tsc's
 * output without tsc's type check (`npm run typecheck` does that), then the bundle: 1.8 s, where
 * tsc alone took 12 s on the 2-core machine (load 3.9).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where package.json is). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The compiled entry point that bin/tool.js falls back to. */
export const BUILT_BIN = join(REPO_ROOT, 'dist', 'src', 'bin.js');
/** The bundle that bin/tool.js prefers when it is at least as new as BUILT_BIN: what users run. */
const BUNDLE = join(REPO_ROOT, 'dist', 'bundle', 'tool.js');

const SOURCE_DIRS = ['src', 'machines'];
const LOCK_STALE_MS = 5 * 60_000;

let building: Promise<void> | undefined;

/** Builds dist/ when it is missing or older than any source file; resolves when it is fresh. Throws when the compiler emits nothing. */
export function ensureBuilt(): Promise<void> {
  building ??= buildIfStale();
  return building;
}

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** The bundle's build script: a change to it changes the bundle as much as a source does. */
const BUNDLE_SCRIPT = join(REPO_ROOT, 'scripts', 'bundle.js');

function isFresh(): boolean {
  if (!existsSync(BUILT_BIN) || !existsSync(BUNDLE)) return false;
  const sources = Math.max(...SOURCE_DIRS.map((dir) => newestSourceMtime(join(REPO_ROOT, dir))));
  return statSync(BUILT_BIN).mtimeMs >= sources && statSync(BUNDLE).mtimeMs >= Math.max(statSync(BUILT_BIN).mtimeMs, statSync(BUNDLE_SCRIPT).mtimeMs);
}

async function buildIfStale(): Promise<void> {
  if (isFresh()) return;
  const lock = join(tmpdir(), `tool-e2e-build-${createHash('sha1').update(REPO_ROOT).digest('hex').slice(0, 12)}.lock`);
  await acquire(lock);
  try {
    // Another worker may have built while this one waited for the lock.
    if (!isFresh()) await compile();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  if (!existsSync(BUILT_BIN)) throw new Error(`the build did not produce ${BUILT_BIN}`);
}

async function acquire(lock: string): Promise<void> {
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left behind by a killed worker would otherwise block every later run.
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) rmSync(lock, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * What tsc would emit (each file of src/ and machines/ to dist/, the same layout), then the bundle
 * of `npm run build`, so the tests run what users run. Every tsconfig option that changes the
 * emitted code is one esbuild reads (target, class fields, module syntax); isolatedModules holds,
 * so a file-by-file transpile is what tsc makes of it.
 */
async function compile(): Promise<void> {
  await runStep('transpile', ['--input-type=module', '-e', TRANSPILE]);
  await runStep('bundle', [join(REPO_ROOT, 'scripts', 'bundle.js')]);
}

const TRANSPILE = `
import { build } from 'esbuild';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
const sources = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
  .map((entry) => join(entry.parentPath, entry.name));
await build({
  entryPoints: ${JSON.stringify(SOURCE_DIRS)}.flatMap((dir) => sources(dir)),
  outdir: 'dist',
  outbase: '.',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  tsconfig: 'tsconfig.build.json',
  logLevel: 'warning',
});
`;

function runStep(name: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      // A step that fails (a syntax error mid-edit by someone else) is reported; the check that
      // dist/src/bin.js exists, and the tests themselves, judge what was emitted.
      if (code !== 0) process.stderr.write(`e2e build: ${name} exited ${code}:\n${output.split('\n').slice(0, 10).join('\n')}\n`);
      resolve();
    });
  });
}
