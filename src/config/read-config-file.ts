/** Reading one of tool's JSON files: missing is fine, broken is a clear error, never a silent reset. */

import { readFile } from 'node:fs/promises';
import { BROKEN_FILE_HINT, ConfigError } from './errors.js';
import { findJsonSyntaxError, lineColAt } from './json-syntax-error.js';
import { ShapeProblem } from './shape.js';

/** The only file format version this build reads and writes. */
export const FILE_VERSION = 1;

export interface ConfigFile<T> {
  path: string;
  /** Holds secrets: errors then show no excerpt of the file's text. */
  secret: boolean;
  /** Builds the typed content from the parsed JSON object; throws ShapeProblem for a bad field. */
  parse(doc: Record<string, unknown>): T;
}

/**
 * The typed content of the file, or undefined when it does not exist. Throws ConfigError
 * (exit 2) naming the file and line:col for broken JSON, a bad field or an unknown `version`.
 */
export async function readConfigFile<T>(spec: ConfigFile<T>): Promise<T | undefined> {
  let text: string;
  try {
    text = await readFile(spec.path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new ConfigError('CONFIG_UNREADABLE', `cannot read ${spec.path} (${code ?? (error as Error).message})`, 'Check that the file is a regular file you can read.');
  }
  // A byte order mark would make JSON.parse fail on an otherwise fine file.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    const problem = findJsonSyntaxError(text) ?? { offset: text.length, message: 'invalid JSON' };
    const pos = lineColAt(text, problem.offset);
    throw new ConfigError('CONFIG_SYNTAX', `${spec.path}:${pos.line}:${pos.col}: not valid JSON: ${problem.message}`, await hintWithExcerpt(spec, text, pos));
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new ConfigError('CONFIG_SHAPE', `${spec.path}:1:1: expected a JSON object with "version": ${FILE_VERSION}`, BROKEN_FILE_HINT);
  }
  const object = doc as Record<string, unknown>;
  if (object.version !== FILE_VERSION) {
    throw await versionError(spec, text, object.version);
  }
  try {
    return spec.parse(object);
  } catch (error) {
    if (!(error instanceof ShapeProblem)) throw error;
    const pos = await positionOf(text, error.pointer);
    throw new ConfigError('CONFIG_SHAPE', `${spec.path}:${pos.line}:${pos.col}: ${error.message}`, await hintWithExcerpt(spec, text, pos));
  }
}

async function versionError(spec: ConfigFile<unknown>, text: string, version: unknown): Promise<ConfigError> {
  const pos = await positionOf(text, '/version');
  if (version === undefined) {
    return new ConfigError('CONFIG_VERSION', `${spec.path}: has no "version" field (expected "version": ${FILE_VERSION})`, BROKEN_FILE_HINT);
  }
  return new ConfigError(
    'CONFIG_VERSION',
    `${spec.path}:${pos.line}:${pos.col}: file format version ${JSON.stringify(version)} is not one this tool understands (it reads version ${FILE_VERSION})`,
    'It was probably written by a newer tool: upgrade tool, or move the file aside to start over. The file was left untouched.',
  );
}

// Positions are only needed for an error, so the YAML parser (which keeps them) loads only then.
async function positionOf(text: string, pointer: string): Promise<{ line: number; col: number }> {
  const { LineCounter, parseDocument } = await import('yaml');
  const { buildSourceMap, locateIn } = await import('../arazzo/source-map.js');
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  return locateIn(buildSourceMap(document.contents, lines), pointer) ?? { line: 1, col: 1 };
}

async function hintWithExcerpt(spec: ConfigFile<unknown>, text: string, pos: { line: number; col: number }): Promise<string> {
  // The excerpt of a secrets file could show a secret: that file gets the position only.
  if (spec.secret) return BROKEN_FILE_HINT;
  const { formatExcerpt } = await import('../arazzo/format-excerpt.js');
  const excerpt = formatExcerpt(text, pos);
  return excerpt === '' ? BROKEN_FILE_HINT : `${excerpt.split('\n').join('\n  ')}\n  ${BROKEN_FILE_HINT}`;
}
