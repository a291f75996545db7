import { dirname } from 'node:path';
import { DescriptionError, loadDescription } from '../openapi/index.js';

const REMOTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A `loadOperations` for validateDocument: the operationIds of a source description that is a
 * local file (relative to the Arazzo document `baseFile`), or undefined for a remote, missing or
 * invalid one. Validation never touches the network, so a remote `$ref` also yields undefined.
 * A description that breaks a read rule (DESCRIPTION_REFUSED: outside the document's folder, in
 * tool's own folders, too large, an alias bomb) also yields undefined and goes to `onRefused`.
 * `allowRead` folders (absolute; --tool-allow-read) may be read besides the document's folder, and
 * with `cwd` a refusal names the folder to pass to that flag.
 */
export function localOperationsLoader(
  baseFile: string,
  options: { denied?: readonly string[]; allowRead?: readonly string[]; cwd?: string; onRefused?: (error: DescriptionError) => void } = {},
): (sourceUrl: string) => Promise<Set<string> | undefined> {
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
      const description = await loadDescription(sourceUrl, { baseFile, fetchText, policy });
      return new Set(description.operations.keys());
    } catch (error) {
      if (error instanceof DescriptionError && error.code === 'DESCRIPTION_REFUSED') options.onRefused?.(error);
      if (error instanceof DescriptionError) return undefined;
      throw error;
    }
  };
}
