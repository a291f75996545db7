import { dirname } from 'node:path';
import type { SourceOperations } from '../arazzo/check-operations.js';
import { DescriptionError } from '../openapi/errors.js';
import { loadDescription } from '../openapi/load-description.js';

const REMOTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A `loadOperations` for validateDocument: the operations of a source description that is a
 * local file (relative to the Arazzo document `baseFile`), or undefined for a remote one, which
 * validation never fetches. Throws the DescriptionError of a file that is missing or invalid, or
 * has a remote `$ref` (validation never touches the network), so validation can say why.
 * A description that breaks a read rule (DESCRIPTION_REFUSED: outside the document's folder, in
 * tool's own folders, too large, an alias bomb) also goes to `onRefused`.
 * `allowRead` folders (absolute; --tool-allow-read) may be read besides the document's folder, and
 * with `cwd` a refusal names the folder to pass to that flag.
 */
export function localOperationsLoader(
  baseFile: string,
  options: { denied?: readonly string[]; allowRead?: readonly string[]; cwd?: string; onRefused?: (error: DescriptionError) => void } = {},
): (sourceUrl: string) => Promise<SourceOperations | undefined> {
  const policy = {
    denied: options.denied ?? [],
    roots: [dirname(baseFile), ...(options.allowRead ?? [])],
    ...(options.cwd !== undefined ? { allowReadFrom: options.cwd } : {}),
  };
  const fetchText = async (url: string): Promise<string> => {
    throw new Error(`validation does not fetch ${url}`);
  };
  return async (sourceUrl) => {
    if (REMOTE.test(sourceUrl.trim()) && !sourceUrl.trim().startsWith('file:')) return undefined;
    try {
      return (await loadDescription(sourceUrl, { baseFile, fetchText, policy })).operations;
    } catch (error) {
      if (error instanceof DescriptionError && error.code === 'DESCRIPTION_REFUSED') options.onRefused?.(error);
      throw error;
    }
  };
}
