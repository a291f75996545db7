import { buildModel } from './build-model.js';
import type { LoadedDocument } from './model.js';
import { parseFast } from './parse-fast.js';
import { parseWithYaml } from './parse-with-yaml.js';
import { lazyLocator } from './source-map.js';

export interface ParseOptions {
  /** Alias expansions allowed while building the value (guards against "billion laughs"); default 100. */
  maxAliasCount?: number;
}

/**
 * Parses YAML or JSON text into a LoadedDocument with source positions. `file` is the name used in
 * messages, `absolutePath` the one relative source URLs resolve against. Throws ArazzoLoadError
 * (YAML_SYNTAX, ALIAS_LIMIT, NOT_AN_OBJECT) when the text is not a YAML mapping.
 */
export function parseDocumentText(text: string, file: string, absolutePath: string, options: ParseOptions = {}): LoadedDocument {
  // The fast parsers answer only for text they read exactly as `yaml` does; everything else (and
  // every error) goes through `yaml`, so messages, positions and limits are the same either way.
  // Positions are computed on the first `locate`, from the text.
  const raw = parseFast(text) ?? parseWithYaml(text, file, options.maxAliasCount ?? 100);
  return { file, absolutePath, model: buildModel(raw), raw, locate: lazyLocator(text) };
}
