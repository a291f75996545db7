/** A temporary directory per test file: documents written from fixture templates, plus config/ and cache/. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** test/fixtures/run/ */
export const RUN_FIXTURES = fileURLToPath(new URL('../../fixtures/run/', import.meta.url));

export interface Workspace {
  dir: string;
  /** Writes `text` to `name` inside the workspace and returns its absolute path. */
  write(name: string, text: string): string;
  /** Copies a template from test/fixtures/run/ with `{{KEY}}` placeholders filled; returns the written path. */
  fixture(name: string, vars?: Record<string, string>, as?: string): string;
  remove(): void;
}

/** Replaces every `{{KEY}}` in `text`. Throws when a placeholder has no value, so a typo cannot go unnoticed. */
export function fillTemplate(text: string, vars: Record<string, string>): string {
  return text.replace(/\{\{([A-Z_]+)\}\}/g, (_, key: string) => {
    const value = vars[key];
    if (value === undefined) throw new Error(`template placeholder {{${key}}} has no value`);
    return value;
  });
}

/** Creates a fresh temporary workspace. */
export function makeWorkspace(prefix = 'tool-e2e-'): Workspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'config'));
  mkdirSync(join(dir, 'cache'));
  const write = (name: string, text: string) => {
    const path = join(dir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return path;
  };
  return {
    dir,
    write,
    fixture: (name, vars = {}, as = name) => write(as, fillTemplate(readFileSync(join(RUN_FIXTURES, name), 'utf8'), vars)),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
