import { dirname, relative } from 'node:path';
import type { LoadSourceWorkflows } from '../arazzo/check-source-workflows.js';
import { parseDocumentText } from '../arazzo/parse-document-text.js';
import { DescriptionError } from '../openapi/errors.js';
import { readPolicyFor } from '../openapi/read-policy.js';
import { readSourceDocument } from '../plan/source-document-reader.js';
import { parseAsyncApi } from '../plan/async-sources.js';
import type { ReadAsyncApi } from '../plan/check-async-steps.js';

const REMOTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A `ReadAsyncApi` for `arazzo validate` (Arazzo 1.1): the AsyncAPI document of a source that is a
 * local file, read by the rules of local descriptions (as localWorkflowsLoader); undefined for a
 * remote one, which validation never fetches. A read rule it breaks also goes to `onRefused`.
 */
export function localAsyncApiReader(
  baseFile: string,
  options: { denied?: readonly string[]; allowRead?: readonly string[]; cwd?: string; onRefused?: (error: DescriptionError) => void } = {},
): ReadAsyncApi {
  const policy = readPolicyFor(baseFile, {
    denied: options.denied ?? [],
    roots: [dirname(baseFile), ...(options.allowRead ?? [])],
    ...(options.cwd !== undefined ? { allowReadFrom: options.cwd } : {}),
  });
  const deps = { policy, fetch: (url: string) => Promise.reject(new Error(`validation does not fetch ${url}`)), trustOrigin: () => undefined };
  return async (sourceUrl) => {
    if (REMOTE.test(sourceUrl.trim()) && !sourceUrl.trim().startsWith('file:')) return undefined;
    try {
      const { text, location } = await readSourceDocument(sourceUrl, baseFile, deps, 'the AsyncAPI description');
      return parseAsyncApi(text, options.cwd === undefined ? location : relative(options.cwd, location) || location, sourceUrl);
    } catch (error) {
      if (error instanceof DescriptionError && error.code === 'DESCRIPTION_REFUSED') options.onRefused?.(error);
      throw error;
    }
  };
}

/**
 * A `loadSourceWorkflows` for `arazzo validate --tool-runner v2`: the workflow ids of an Arazzo
 * source that is a local file (relative to the Arazzo document `baseFile`), read by the rules of
 * local descriptions (inside the document's folder or an `allowRead` one, never a `denied` one, a
 * regular file of at most 10 MiB); undefined for a remote one, which validation never fetches.
 * Throws when the file cannot be read or parsed; a read rule it breaks (DESCRIPTION_REFUSED) also
 * goes to `onRefused`.
 */
export function localWorkflowsLoader(
  baseFile: string,
  options: { denied?: readonly string[]; allowRead?: readonly string[]; cwd?: string; onRefused?: (error: DescriptionError) => void } = {},
): LoadSourceWorkflows {
  const policy = readPolicyFor(baseFile, {
    denied: options.denied ?? [],
    roots: [dirname(baseFile), ...(options.allowRead ?? [])],
    ...(options.cwd !== undefined ? { allowReadFrom: options.cwd } : {}),
  });
  const deps = {
    policy,
    fetch: (url: string) => Promise.reject(new Error(`validation does not fetch ${url}`)),
    trustOrigin: () => undefined,
  };
  return async (sourceUrl) => {
    if (REMOTE.test(sourceUrl.trim()) && !sourceUrl.trim().startsWith('file:')) return undefined;
    try {
      const { text, location } = await readSourceDocument(sourceUrl, baseFile, deps);
      const shown = options.cwd === undefined ? location : relative(options.cwd, location) || location;
      return parseDocumentText(text, shown, location).model.workflows.flatMap((w) => (w.workflowId === undefined ? [] : [w.workflowId]));
    } catch (error) {
      if (error instanceof DescriptionError && error.code === 'DESCRIPTION_REFUSED') options.onRefused?.(error);
      throw error;
    }
  };
}
