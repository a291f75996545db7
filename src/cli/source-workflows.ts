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
 * A `loadSourceWorkflows` for `arazzo validate --tool-runner v2`: the workflow ids of an Arazzo
 * source that is a local file (relative to the Arazzo document `baseFile`), read by the rules of
 * local descriptions (inside the document's folder or an `allowRead` one, never a `denied` one, a
 * regular file of at most 10 MiB); undefined for a remote one, which validation never fetches.
 * Throws when the file cannot be read or parsed; a read rule it breaks (DESCRIPTION_REFUSED) also
 * goes to `onRefused`.
 */
export function localWorkflowsLoader(baseFile: string, options: LocalReadOptions = {}): LoadSourceWorkflows {
  const read = localSourceReader(baseFile, options, 'the Arazzo document');
  return async (sourceUrl) => {
    const found = await read(sourceUrl);
    if (found === undefined) return undefined;
    const shown = options.cwd === undefined ? found.location : relative(options.cwd, found.location) || found.location;
    return parseDocumentText(found.text, shown, found.location).model.workflows.flatMap((w) => (w.workflowId === undefined ? [] : [w.workflowId]));
  };
}

/**
 * A `ReadAsyncApi` for `arazzo validate` (Arazzo 1.1): the AsyncAPI document of a source that is a
 * local file, read as localWorkflowsLoader reads an Arazzo source; undefined for a remote one.
 */
export function localAsyncApiReader(baseFile: string, options: LocalReadOptions = {}): ReadAsyncApi {
  const read = localSourceReader(baseFile, options, 'the AsyncAPI description');
  return async (sourceUrl) => {
    const found = await read(sourceUrl);
    return found === undefined ? undefined : parseAsyncApi(found.text, options.cwd === undefined ? found.location : relative(options.cwd, found.location) || found.location, sourceUrl);
  };
}

/** Where a local source may be read from: besides the document's folder, `allowRead`; never `denied`; refusals named relative to `cwd`. */
interface LocalReadOptions {
  denied?: readonly string[];
  allowRead?: readonly string[];
  cwd?: string;
  onRefused?: (error: DescriptionError) => void;
}

/**
 * The text of a source document that is a local file (relative to `baseFile`), read by the rules
 * of local descriptions (inside the document's folder or an `allowRead` one, never a `denied`
 * one, a regular file of at most 10 MiB); undefined for a remote one, which validation never
 * fetches. Throws when it cannot be read; a read rule it breaks (DESCRIPTION_REFUSED) also goes
 * to `onRefused`.
 */
function localSourceReader(baseFile: string, options: LocalReadOptions, what: string): (sourceUrl: string) => Promise<{ text: string; location: string } | undefined> {
  const policy = readPolicyFor(baseFile, {
    denied: options.denied ?? [],
    roots: [dirname(baseFile), ...(options.allowRead ?? [])],
    ...(options.cwd !== undefined ? { allowReadFrom: options.cwd } : {}),
  });
  const deps = { policy, fetch: (url: string) => Promise.reject(new Error(`validation does not fetch ${url}`)), trustOrigin: () => undefined };
  return async (sourceUrl) => {
    if (REMOTE.test(sourceUrl.trim()) && !sourceUrl.trim().startsWith('file:')) return undefined;
    try {
      return await readSourceDocument(sourceUrl, baseFile, deps, what);
    } catch (error) {
      if (error instanceof DescriptionError && error.code === 'DESCRIPTION_REFUSED') options.onRefused?.(error);
      throw error;
    }
  };
}
