import { realpath, stat } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { DEFAULT_PROFILE, type RunnerProfile } from '../../arazzo/runner-profile.js';
import { CommandUsageError } from '../../errors/tool-error.js';
import { projectFolder } from '../../openapi/project-folder.js';
import { printableLine } from '../../output/printable.js';
import { readSettingsFile, SETTING_KEYS, SETTINGS_FILE, type ProjectSettings } from '../project-settings.js';
import type { CommandIo } from './command-io.js';

/** What each setting is without a tool.config.yaml (and without a flag). */
const DEFAULTS: Record<(typeof SETTING_KEYS)[number], unknown> = {
  runner: `${DEFAULT_PROFILE.name} (or TOOL_RUNNER)`,
  allowRead: [],
  allowRefHosts: [],
  bind: {},
  retry: 2,
  timeout: 30,
  maxSteps: 10_000,
  checks: 'warn',
  reports: {},
  silence: [],
};

/** `tool config show [path]`: prints the effective project settings on stdout; returns 0. Throws ProjectSettingsError (exit 2) for an invalid file. */
export async function configShow(options: { path: string | undefined; output: 'text' | 'json' }, { context }: CommandIo): Promise<number> {
  const given = resolve(context.cwd, options.path ?? '.');
  const info = await stat(given).catch(() => undefined);
  if (info === undefined) throw new CommandUsageError(`${options.path ?? '.'}: no such file or folder`, 'Give an Arazzo document or a folder of the project.');
  const folder = await realpath(info.isDirectory() ? given : dirname(given));
  const project = await projectFolder(folder);
  const settings: ProjectSettings = project === undefined ? {} : await readSettingsFile(project, context.cwd);
  const shown = (path: string) => relative(context.cwd, path) || '.';
  const file = settings.file === undefined ? undefined : shown(settings.file);
  const rows = SETTING_KEYS.map((key) => {
    const setting = settings[key] as { value: unknown; line: number } | undefined;
    // The runner is kept as its profile: shown by its name.
    const value = key === 'runner' && setting ? (setting.value as RunnerProfile).name : setting?.value;
    return { key, value: setting ? shownValue(value, context.cwd) : DEFAULTS[key], from: setting ? `${file}:${setting.line}` : 'default' };
  });
  if (options.output === 'json') {
    context.stdout.write(`${JSON.stringify({ project: project ?? null, file: settings.file ?? null, settings: Object.fromEntries(rows.map((row) => [row.key, { value: row.value, from: row.from }])) }, null, 2)}\n`);
    return 0;
  }
  const lines = [
    project === undefined ? `project: none (no .git or ${SETTINGS_FILE} above ${shown(folder)}); documents read only their own folder` : `project: ${shown(project)}`,
    `settings: ${file ?? `none (no ${SETTINGS_FILE} in the project)`}`,
    ...rows.map((row) => `  ${row.key.padEnd(13)} ${JSON.stringify(row.value)}  (${row.from})`),
  ];
  context.stdout.write(`${lines.map((line) => printableLine(line)).join('\n')}\n`);
  return 0;
}

/** Absolute paths shown relative to the current folder, as a user would type them. */
function shownValue(value: unknown, cwd: string): unknown {
  if (typeof value === 'string') return value.startsWith('/') ? relative(cwd, value) || '.' : value;
  if (Array.isArray(value)) return value.map((item) => shownValue(item, cwd));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shownValue(item, cwd)]));
  return value;
}
