/**
 * `tool.config.yaml`: defaults a project gives the flags people repeat (docs/cli.md, *Project
 * settings*; schema in docs/schemas/tool.config.schema.json). It is read from the project folder
 * of the document (src/openapi/project-folder.ts) and checked whole before anything runs: an
 * unknown key or a bad value is a usage error (exit 2) naming the file, line and key. Flags win
 * over it. A repository's own settings cannot widen its reach: `allowRead` folders must be inside
 * the project, report paths too, and `allowRefHosts` lift only the same-origin rule of remote
 * `$ref`s, never the rule that keeps `$ref`s off loopback and private addresses.
 */
import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readBoundedText } from '../arazzo/read-bounded.js';
import { openForReading } from '../arazzo/open-for-reading.js';
import { findDuplicateKey } from '../arazzo/find-duplicate-key.js';
import { profileNamed, RUNNER_PROFILES, type RunnerProfile } from '../arazzo/runner-profile.js';
import { yamlLibrary } from '../arazzo/yaml-library.js';
import { didYouMean } from '../arazzo/suggest.js';
import { ToolError } from '../errors/tool-error.js';
import { projectFolder } from '../openapi/project-folder.js';
import { isInside, normaliseRefHost } from '../openapi/read-policy.js';

export const SETTINGS_FILE = 'tool.config.yaml';

/** The largest settings file read. */
const MAX_SETTINGS_BYTES = 256 * 1024;

/** Where a setting's value came from: a line of the settings file. */
export interface Sourced<T> {
  value: T;
  line: number;
}

/** A warning to silence: its code, optionally only in one file (relative to the project) and at one line. */
export interface Silenced {
  code: string;
  file?: string;
  line?: number;
}

export interface ProjectSettings {
  /** The settings file (absolute), when the project has one. */
  file?: string;
  /** The settings file as messages name it (relative to the current folder). */
  shownFile?: string;
  /** The project folder (real path), when the document has one. */
  project?: string;
  runner?: Sourced<RunnerProfile>;
  /** Absolute folders inside the project. */
  allowRead?: Sourced<string[]>;
  allowRefHosts?: Sourced<string[]>;
  bind?: Sourced<Record<string, string>>;
  retry?: Sourced<number>;
  timeout?: Sourced<number>;
  maxSteps?: Sourced<number>;
  checks?: Sourced<'off' | 'warn' | 'fail'>;
  /** Report paths (absolute, inside the project). */
  reports?: Sourced<{ report?: string; har?: string; junit?: string }>;
  silence?: Sourced<Silenced[]>;
}

export const SETTING_KEYS = ['runner', 'allowRead', 'allowRefHosts', 'bind', 'retry', 'timeout', 'maxSteps', 'checks', 'reports', 'silence'] as const;

/** A settings file that is not what it must be: exit 2, naming the file, line and key. */
export class ProjectSettingsError extends ToolError {
  constructor(file: string, line: number | undefined, message: string) {
    super('PROJECT_SETTINGS_INVALID', `${file}${line === undefined ? '' : `:${line}`}: ${message}`, `Fix ${SETTINGS_FILE} (docs/cli.md, Project settings), or remove it.`);
    this.name = 'ProjectSettingsError';
  }
}

/**
 * The settings of the project the document at `documentPath` belongs to; none (`{}`) when it has no
 * project, or its project has no settings file. Throws ProjectSettingsError (exit 2).
 */
export async function readProjectSettings(documentPath: string, cwd: string, read: Map<string, Promise<ProjectSettings>> = new Map()): Promise<ProjectSettings> {
  const folder = await realpath(dirname(resolve(cwd, documentPath))).catch(() => undefined);
  if (folder === undefined) return {};
  const project = await projectFolder(folder);
  if (project === undefined) return {};
  // `read`: the settings files one command has read already, by project (validate of many documents reads each once).
  let settings = read.get(project);
  if (settings === undefined) read.set(project, (settings = readSettingsFile(project, cwd)));
  return settings;
}

/** The settings file of `project` (a real path), read and checked; `{ project }` when there is none. */
export async function readSettingsFile(project: string, cwd: string): Promise<ProjectSettings> {
  const path = join(project, SETTINGS_FILE);
  const shown = relative(cwd, path) || path;
  let text: string;
  try {
    const { handle, info, kind } = await openForReading(path);
    try {
      if (kind !== 'file') throw new ProjectSettingsError(shown, undefined, 'is not a regular file');
      text = await readBoundedText(handle, info.size, MAX_SETTINGS_BYTES, () => new ProjectSettingsError(shown, undefined, `is larger than ${MAX_SETTINGS_BYTES / 1024} KiB`));
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { project };
    if (error instanceof ProjectSettingsError) throw error;
    throw new ProjectSettingsError(shown, undefined, `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return { file: path, shownFile: shown, project, ...(await checkSettings(text, shown, project)) };
}

type Node = { value: unknown; line: number };

/** Parses and checks the text; every value is checked before any is used. */
async function checkSettings(text: string, file: string, project: string): Promise<Omit<ProjectSettings, 'file' | 'project'>> {
  const { LineCounter, parseDocument, isMap, isScalar, isSeq } = yamlLibrary();
  const lines = new LineCounter();
  // Duplicate keys are found in linear time (the library's own check is quadratic).
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  const duplicate = findDuplicateKey(doc);
  if (duplicate !== undefined) throw new ProjectSettingsError(file, lines.linePos(duplicate.offset).line, `the key ${JSON.stringify(String(duplicate.key))} is given twice`);
  const fail = (line: number | undefined, message: string): never => {
    throw new ProjectSettingsError(file, line, message);
  };
  if (doc.errors.length > 0) {
    const first = doc.errors[0]!;
    fail(first.linePos?.[0].line, `is not valid YAML: ${first.message.split('\n')[0]}`);
  }
  const lineOf = (node: { range?: [number, number, number] | null } | null | undefined): number => lines.linePos(node?.range?.[0] ?? 0).line;
  if (doc.contents === null || (isScalar(doc.contents) && (doc.contents.value === null || doc.contents.value === ''))) return {};
  if (!isMap(doc.contents)) return fail(1, 'must be a mapping of settings ({} for none)');
  const entries = new Map<string, Node>();
  for (const pair of doc.contents.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    const line = lineOf(pair.key as never);
    if (!(SETTING_KEYS as readonly string[]).includes(key)) fail(line, `unknown key "${key}"${didYouMean(key, SETTING_KEYS)}; the keys are ${SETTING_KEYS.join(', ')}`);
    const value = pair.value;
    // toJS with maxAliasCount 0: a settings file has no use for aliases (nor room for an alias bomb).
    entries.set(key, { value: isScalar(value) ? value.value : isSeq(value) || isMap(value) ? aliasFree(() => value.toJS(doc, { maxAliasCount: 0 }), line) : value, line });
  }
  function aliasFree(read: () => unknown, line: number): unknown {
    try {
      return read();
    } catch (error) {
      return fail(line, `cannot be read: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const out: Omit<ProjectSettings, 'file' | 'project'> = {};
  const strings = (key: string, node: Node): string[] => {
    if (!Array.isArray(node.value) || !node.value.every((item) => typeof item === 'string' && item.trim() !== '')) fail(node.line, `${key} must be a list of non-empty strings`);
    return node.value as string[];
  };
  const count = (key: string, node: Node, min: number, max: number): number => {
    if (typeof node.value !== 'number' || !Number.isInteger(node.value) || node.value < min || node.value > max) fail(node.line, `${key} must be a whole number from ${min} to ${max}`);
    return node.value as number;
  };
  for (const [key, node] of entries) {
    const line = node.line;
    switch (key) {
      case 'runner':
        out.runner = { value: profileNamed(String(node.value)) ?? fail(line, `runner must be one of ${RUNNER_PROFILES.map((profile) => profile.name).join(', ')}`), line };
        break;
      case 'allowRead': {
        const folders: string[] = [];
        for (const folder of strings(key, node)) folders.push(await insideProject(folder, project, 'directory', (why) => fail(line, `allowRead "${folder}" ${why}`)));
        out.allowRead = { value: folders, line };
        break;
      }
      case 'allowRefHosts': {
        const hosts = strings(key, node).map((host) => normaliseRefHost(host) ?? fail(line, `allowRefHosts "${host}" is not a host (host or host:port)`));
        out.allowRefHosts = { value: hosts, line };
        break;
      }
      case 'bind': {
        const value = node.value;
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(line, 'bind must be a mapping of source names to API names');
        for (const [source, api] of Object.entries(value)) if (typeof api !== 'string' || api.trim() === '' || source.trim() === '') fail(line, `bind "${source}" must name an API (a string)`);
        out.bind = { value: { ...(value as Record<string, string>) }, line };
        break;
      }
      case 'retry':
        out.retry = { value: count(key, node, 0, 20), line };
        break;
      case 'timeout':
        out.timeout = { value: count(key, node, 1, 3600), line };
        break;
      case 'maxSteps':
        out.maxSteps = { value: count(key, node, 1, 100_000_000), line };
        break;
      case 'checks':
        if (node.value !== 'off' && node.value !== 'warn' && node.value !== 'fail') fail(line, 'checks must be off, warn or fail');
        out.checks = { value: node.value as 'off' | 'warn' | 'fail', line };
        break;
      case 'reports': {
        const value = node.value;
        if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail(line, 'reports must be a mapping with report, har and junit paths');
        const reports: { report?: string; har?: string; junit?: string } = {};
        for (const [name, path] of Object.entries(value)) {
          if (name !== 'report' && name !== 'har' && name !== 'junit') fail(line, `reports has an unknown key "${name}"${didYouMean(name, ['report', 'har', 'junit'])}; the keys are report, har, junit`);
          if (typeof path !== 'string' || path.trim() === '') fail(line, `reports.${name} must be a file path`);
          reports[name as 'report'] = await insideProject(path as string, project, 'file', (why) => fail(line, `reports.${name} "${String(path)}" ${why}`));
        }
        out.reports = { value: reports, line };
        break;
      }
      case 'silence':
        out.silence = { value: silenced(node, fail), line };
        break;
    }
  }
  return out;
}

/** `silence` entries: `CODE` or `CODE@file` or `CODE@file:line` (file relative to the project). */
function silenced(node: Node, fail: (line: number, message: string) => never): Silenced[] {
  if (!Array.isArray(node.value)) return fail(node.line, 'silence must be a list of finding codes (CODE, CODE@file or CODE@file:line)');
  return node.value.map((entry: unknown) => {
    const match = typeof entry === 'string' ? /^([A-Z][A-Z0-9_]*)(?:@([^:]+)(?::(\d+))?)?$/.exec(entry.trim()) : null;
    if (!match) return fail(node.line, `silence entry ${JSON.stringify(entry)} is not CODE, CODE@file or CODE@file:line`);
    const out: Silenced = { code: match[1]! };
    if (match[2] !== undefined) out.file = match[2];
    if (match[3] !== undefined) out.line = Number(match[3]);
    return out;
  });
}

/**
 * `path` (relative to the project) as an absolute path inside it: a folder that exists (`directory`),
 * or a file to write whose folder exists inside it (`file`; the file itself, when it exists, must
 * not be a link out). Calls `refuse` with the reason otherwise.
 */
async function insideProject(path: string, project: string, kind: 'directory' | 'file', refuse: (why: string) => never): Promise<string> {
  if (isAbsolute(path)) refuse('must be relative to the project folder');
  const target = resolve(project, path);
  const checked = kind === 'directory' ? target : dirname(target);
  const real = await realpath(checked).catch(() => undefined);
  if (real === undefined) return refuse(kind === 'directory' ? 'does not exist' : 'is in a folder that does not exist');
  if (!isInside(real, project)) return refuse(`is outside its project ${project}; a project's settings may only name folders inside it (give --tool-allow-read for others)`);
  if (kind === 'directory' && !(await stat(real)).isDirectory()) refuse('is not a folder');
  if (kind === 'file') {
    const file = await realpath(target).catch(() => undefined);
    if (file !== undefined && !isInside(file, project)) refuse(`is a link out of its project ${project}`);
  }
  return kind === 'directory' ? real : join(real, target.slice(dirname(target).length + sep.length));
}

/** Whether a warning is silenced by the settings (`file` absolute; `project` the folder entries are relative to). */
export function isSilenced(silence: readonly Silenced[], finding: { code: string; line?: number }, file: string, project: string | undefined): boolean {
  return silence.some((entry) => {
    if (entry.code !== finding.code) return false;
    if (entry.file === undefined) return true;
    if (project === undefined || resolve(project, entry.file) !== resolve(file)) return false;
    return entry.line === undefined || entry.line === finding.line;
  });
}

/** Whether the project's `silence` list hides a warning of the document `file`. */
export function silencer(settings: ProjectSettings): (finding: { code: string; severity: string; line?: number }, file: string) => boolean {
  const silence = settings.silence?.value ?? [];
  return (finding, file) => finding.severity === 'warning' && isSilenced(silence, finding, file, settings.project);
}
