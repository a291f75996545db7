import { createRequire } from 'node:module';

type YamlLibrary = typeof import('yaml');

let library: YamlLibrary | undefined;

/**
 * The `yaml` library, loaded on its first use. The fast parsers (parse-fast.ts) read nearly every
 * document, so `yaml` is needed only for their fallback, for error positions and for YAML output;
 * loading it with every run cost a few ms of start-up (docs/performance.md, fifth pass). Callers
 * are synchronous, so this is a `require` (`yaml` is CommonJS for Node); scripts/bundle.js points
 * it at the bundle's own copy.
 */
export function yamlLibrary(): YamlLibrary {
  library ??= createRequire(import.meta.url)('yaml') as YamlLibrary;
  return library;
}
