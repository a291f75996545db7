import { buildModel } from './build-model.js';
import { detachStrings } from './detach-strings.js';
import { MAX_DOCUMENT_DEPTH, overDeepPointer, shortPointer } from './check-depth.js';
import { ArazzoLoadError } from './errors.js';
import { formatExcerpt } from './format-excerpt.js';
import type { LoadedDocument, Position } from './model.js';
import { parseWithYaml } from './parse-with-yaml.js';
import type { RawObject } from './read-fields.js';
import { lazyLocator } from './source-map.js';

export interface ParseOptions {
  /** Alias expansions allowed while building the value (guards against "billion laughs"); default 100. */
  maxAliasCount?: number;
}

/**
 * Parses YAML or JSON text into a LoadedDocument with source positions. `file` is the name used in
 * messages, `absolutePath` the one relative source URLs resolve against. Throws ArazzoLoadError
 * (YAML_SYNTAX, ALIAS_LIMIT, NOT_AN_OBJECT) when the text is not a YAML mapping, and TOO_DEEP when
 * it nests deeper than MAX_DOCUMENT_DEPTH levels.
 */
export function parseDocumentText(text: string, file: string, absolutePath: string, options: ParseOptions = {}): LoadedDocument {
  return documentFromValue(parseDocumentValue(text, file, options).value, text, file, absolutePath);
}

/**
 * The value of the document's text, as parseDocumentText reads it (same errors), and whether it is
 * a tree: a value without YAML aliases, which the document cache may keep as JSON (an aliased
 * subtree would be written out once per alias).
 */
export function parseDocumentValue(text: string, file: string, options: ParseOptions = {}): { value: RawObject; tree: boolean } {
  // parseWithYaml throws NOT_AN_OBJECT for anything but a mapping.
  const { value, aliased } = parseWithYaml(text, file, options.maxAliasCount ?? 100);
  refuseOverDeep(value, text, file, lazyLocator(text));
  return { value: value as RawObject, tree: !aliased };
}

/**
 * The LoadedDocument of a value parsed from `text` (by parseDocumentValue, now or in an earlier
 * run: the document cache keeps parsed trees). Positions are computed on the first `locate`,
 * from the text.
 */
export function documentFromValue(value: RawObject, text: string, file: string, absolutePath: string): LoadedDocument {
  detachStrings(value);
  return { file, absolutePath, model: buildModel(value), raw: value, text, locate: lazyLocator(text) };
}

/** Throws ArazzoLoadError TOO_DEEP when the value nests deeper than MAX_DOCUMENT_DEPTH, naming where. */
function refuseOverDeep(raw: unknown, text: string, file: string, locate: (pointer: string) => Position | undefined): void {
  const pointer = overDeepPointer(raw);
  if (pointer === undefined) return;
  const pos = locate(pointer);
  const where = pos ? `${file}:${pos.line}:${pos.col}` : file;
  const excerpt = pos ? formatExcerpt(text, pos) : '';
  throw new ArazzoLoadError(
    'TOO_DEEP',
    `${where}: the document nests deeper than ${MAX_DOCUMENT_DEPTH} levels (at ${shortPointer(pointer)})`,
    file,
    pos,
    excerpt === '' ? undefined : excerpt.split('\n').join('\n  '),
  );
}
