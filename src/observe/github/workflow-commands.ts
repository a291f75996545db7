/**
 * GitHub Actions workflow commands (`::error file=…,line=…::message`, `::add-mask::value`), as
 * the runner parses them from a step's output lines; tool prints them on stderr, which the runner
 * reads as it reads stdout, so that stdout stays the record (docs/cli.md#ci). Pure: text in, lines out.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { printableLine } from '../../output/printable.js';
import type { KnownSecrets } from '../../output/redact.js';

/** Whether the process runs as a step of a GitHub Actions job (the runner sets GITHUB_ACTIONS=true). */
export function inGitHubActions(env: Record<string, string | undefined>): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/**
 * The `file` of an annotation: GitHub links a path relative to the repository's root
 * ($GITHUB_WORKSPACE, else the working directory); a file outside it keeps its absolute path.
 */
export function annotationFile(file: string, cwd: string, env: Record<string, string | undefined>): string {
  const absolute = resolve(cwd, file);
  const inside = relative(env.GITHUB_WORKSPACE || cwd, absolute);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return absolute;
  return inside.split(sep).join('/');
}

/** A command's data (its message): `%`, CR and LF escaped, as the runner unescapes them. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A command's property value: also `:` and `,`, which end a value. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Where an annotation points: the file as given on the command line, and a line and column when known. */
export interface AnnotationPlace {
  file?: string;
  line?: number;
  col?: number;
  title?: string;
}

/** One `::error` or `::warning` line (with its newline); the message is masked and stripped of control characters. */
export function annotation(level: 'error' | 'warning', message: string, place: AnnotationPlace = {}, known: KnownSecrets = {}): string {
  const properties: string[] = [];
  if (place.file !== undefined) properties.push(`file=${escapeProperty(printableLine(place.file, known))}`);
  if (place.line !== undefined) properties.push(`line=${place.line}`);
  if (place.line !== undefined && place.col !== undefined) properties.push(`col=${place.col}`);
  if (place.title !== undefined) properties.push(`title=${escapeProperty(printableLine(place.title, known))}`);
  const head = properties.length === 0 ? `::${level}` : `::${level} ${properties.join(',')}`;
  return `${head}::${escapeData(printableLine(message, known))}\n`;
}

/** `::add-mask::` lines for the values the runner should hide in the job's log (each line of a multi-line value on its own). */
export function addMasks(values: Iterable<string>): string {
  const lines = new Set<string>();
  for (const value of values) for (const part of value.split(/\r?\n/)) if (part.trim() !== '') lines.add(part);
  return [...lines].map((part) => `::add-mask::${escapeData(part)}\n`).join('');
}
