import { dirname } from 'node:path';
import type { LoadPathOperations, PathOperations } from '../arazzo/check-operation-paths.js';
import type { SourceOperations } from '../arazzo/check-operations.js';
import { allOperations } from '../openapi/all-operations.js';
import { DescriptionError } from '../openapi/errors.js';
import { loadDescription } from '../openapi/load-description.js';
import type { OpenApiDescription } from '../openapi/types.js';

const REMOTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A `loadOperations` for validateDocument: the operations of a source description that is a
 * local file (relative to the Arazzo document `baseFile`), or undefined for a remote one, which
 * validation never fetches. Throws the DescriptionError of a file that is missing or invalid, or
 * has a remote `$ref` (validation never touches the network), so validation can say why.
 * A description that breaks a read rule (DESCRIPTION_REFUSED: outside the document's folder, in
 * tool's own folders, too large, an alias bomb) also goes to `onRefused`.
 * `allowRead` folders (absolute; --tool-allow-read) may be read besides the document's folder, and
 * with `cwd` a refusal names the folder to pass to that flag. Its `paths` is the `loadPathOperations`
 * of the same descriptions (every operation, for v2's operationPath), each read once for both.
 */
export function localOperationsLoader(
  baseFile: string,
  options: { denied?: readonly string[]; allowRead?: readonly string[]; cwd?: string; onRefused?: (error: DescriptionError) => void } = {},
): ((sourceUrl: string) => Promise<SourceOperations | undefined>) & { paths: LoadPathOperations } {
  const policy = {
    denied: options.denied ?? [],
    roots: [dirname(baseFile), ...(options.allowRead ?? [])],
    ...(options.cwd !== undefined ? { allowReadFrom: options.cwd } : {}),
  };
  const fetchText = async (url: string): Promise<string> => {
    throw new Error(`validation does not fetch ${url}`);
  };
  const loaded = new Map<string, Promise<OpenApiDescription>>();
  const load = (sourceUrl: string): Promise<OpenApiDescription> => {
    let pending = loaded.get(sourceUrl);
    if (!pending) {
      pending = loadDescription(sourceUrl, { baseFile, fetchText, policy });
      loaded.set(sourceUrl, pending);
    }
    return pending;
  };
  const loader = async (sourceUrl: string): Promise<SourceOperations | undefined> => {
    if (REMOTE.test(sourceUrl.trim()) && !sourceUrl.trim().startsWith('file:')) return undefined;
    try {
      return (await load(sourceUrl)).operations;
    } catch (error) {
      if (error instanceof DescriptionError && error.code === 'DESCRIPTION_REFUSED') options.onRefused?.(error);
      throw error;
    }
  };
  // v2's operationPath steps need the operations without an operationId too; the description is read once for both.
  return Object.assign(loader, {
    paths: async (sourceUrl: string): Promise<PathOperations | undefined> => {
      if (REMOTE.test(sourceUrl.trim()) && !sourceUrl.trim().startsWith('file:')) return undefined;
      return allOperations(await load(sourceUrl));
    },
  });
}
