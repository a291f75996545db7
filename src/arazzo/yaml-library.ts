import { createRequire } from 'node:module';

type YamlLibrary = typeof import('yaml');

let library: YamlLibrary | undefined;

/**
 * The `yaml` library, loaded on its first use: a document read back from the document cache
 * (src/cache/document-store.ts) needs no parser, and commands that read no YAML never load it.
 * Callers are synchronous, so this is a `require` (`yaml` is CommonJS for Node); scripts/bundle.js
 * points it at the bundle's own copy.
 */
export function yamlLibrary(): YamlLibrary {
  library ??= createRequire(import.meta.url)('yaml') as YamlLibrary;
  return library;
}
