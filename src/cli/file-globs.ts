/**
 * File arguments with globs (`workflows/*.arazzo.yaml`, `'**\/*.arazzo.yaml'`), expanded by tool
 * when the shell did not (a quoted glob, a shell without globbing, a CI step): `*` and `?` within
 * one name, `**` for any number of folders. Hidden names match only a pattern that starts with a
 * dot; links to folders are not followed (no loops); the expansion is sorted and bounded.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CommandUsageError } from '../errors/tool-error.js';

/** The most files one glob may expand to. */
const MAX_MATCHES = 10_000;

const GLOB = /[*?]/;

/** Each argument as is, or the files its glob matches (relative to `cwd` as written). Throws CommandUsageError for a glob that matches nothing, or too much. */
export async function expandFileArguments(args: readonly string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  for (const arg of args) {
    if (!GLOB.test(arg)) {
      files.push(arg);
      continue;
    }
    const matches = await expandGlob(arg, cwd);
    if (matches.length === 0) throw new CommandUsageError(`no file matches ${JSON.stringify(arg)}`, 'Check the pattern: * and ? match within a name, ** any number of folders.');
    files.push(...matches);
  }
  return files;
}

async function expandGlob(pattern: string, cwd: string): Promise<string[]> {
  const absolute = pattern.startsWith('/');
  const parts = pattern.split('/').filter((part, i) => part !== '' || i === 0);
  const first = parts.findIndex((part) => GLOB.test(part));
  const base = parts.slice(0, first).join('/') || (absolute ? '/' : '');
  const matchers = parts.slice(first).map((part) => (part === '**' ? ('**' as const) : nameMatcher(part)));
  const found: string[] = [];
  const walk = async (folder: string, at: number): Promise<void> => {
    if (found.length > MAX_MATCHES) throw new CommandUsageError(`${JSON.stringify(pattern)} matches more than ${MAX_MATCHES} files`, 'Give a narrower pattern.');
    const matcher = matchers[at];
    if (matcher === undefined) return;
    const entries = await readdir(join(cwd, folder || '.'), { withFileTypes: true }).catch(() => []);
    if (matcher === '**') {
      // Zero folders, then one more folder each time.
      await walk(folder, at + 1);
      for (const entry of entries) if (entry.isDirectory() && !entry.name.startsWith('.')) await walk(join(folder, entry.name), at);
      return;
    }
    const last = at === matchers.length - 1;
    for (const entry of entries) {
      if (!matcher(entry.name)) continue;
      const path = join(folder, entry.name);
      if (last) {
        if (entry.isFile() || entry.isSymbolicLink()) found.push(path);
      } else if (entry.isDirectory()) await walk(path, at + 1);
    }
  };
  await walk(base, 0);
  return [...new Set(found)].sort();
}

/** A matcher of one name against a segment with `*` and `?`; a hidden name only when the segment starts with a dot. */
function nameMatcher(segment: string): (name: string) => boolean {
  const source = segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  const regex = new RegExp(`^${source}$`, 's');
  const dot = segment.startsWith('.');
  return (name) => (dot || !name.startsWith('.')) && regex.test(name);
}
