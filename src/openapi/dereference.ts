import { dirname, resolve as resolvePath } from 'node:path';
import { someNode } from '../expressions/some-node.js';
import { fileURLToPath } from 'node:url';
import { DescriptionError, RefFetchRefusedError } from './errors.js';
import { hideSkippedRefs, restoreRefs, SKIPPED_MEMBERS, type HiddenRefs } from './prepare-refs.js';
import { parseText } from './parse-text.js';
import { formatBytes, LocalReadError, readLocalFile } from './read-local-file.js';
import { readPolicyFor, remoteRefRefusal, shortRef, type ReadPolicy } from './read-policy.js';
import { displayName, refErrorMessage, type RefFailures } from './ref-error-message.js';

/** What a fetcher returns: the text, or the text with the final URL after redirects. */
export type FetchedRef = string | { text: string; url: string };

export interface DereferenceOptions {
  /** Fetches http(s) `$ref` targets; when absent such refs fail with DESCRIPTION_REF. A RefFetchRefusedError it throws becomes DESCRIPTION_REFUSED. */
  fetchText?: (url: string) => Promise<FetchedRef>;
  /** Where file refs may point, the size cap and the hosts remote refs may reach; see readPolicyFor for the defaults. */
  policy?: Partial<ReadPolicy>;
}

const HTTP_URL = /^https?:\/\//i;
const ARRAY_INDEX = /^\d+$/;

/** The library's per-file object, as its resolvers receive it. */
interface RefFile {
  url: string;
  hash?: string;
  /** The `$ref` as written, without its fragment. */
  reference?: string;
  /** `file#pointer` of the object holding the `$ref`. */
  baseUrl?: string;
}

/**
 * Replaces the `$ref`s that request building reads (in place) by their targets, local or in
 * other files or URLs, resolved against `location`. Body and header schemas keep their `$ref`s;
 * `$ref`s inside extensions, examples, callbacks and links are never followed. File refs must stay
 * inside the policy's roots (or the description's own folder); a remote description's refs on its
 * origin. Throws DescriptionError: DESCRIPTION_REFUSED when a ref breaks such a rule or a limit,
 * DESCRIPTION_REF when a target cannot be read, parsed or found.
 */
export async function dereference(doc: object, location: string, options: DereferenceOptions): Promise<object> {
  const remote = HTTP_URL.test(location);
  const base = remote || location.startsWith('file:') ? location : resolvePath(location);
  const policy = readPolicyFor(base, options.policy);
  const localBase = remote ? undefined : base.startsWith('file:') ? fileURLToPath(base) : base;
  // A description's own folder is a root for its refs; it is itself inside the roots unless the user named it.
  const refRoots = localBase === undefined ? [] : [...new Set([...policy.roots, dirname(localBase)])];
  const hidden: HiddenRefs = [];
  hideSkippedRefs(doc, location, hidden);
  // The library is only loaded for documents that need it, to keep start-up fast.
  const { $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const fetchText = options.fetchText;
  // The library flattens plugin errors into its own messages; keep the originals for ours.
  const failures: RefFailures = {};
  const refuse = (message: string): never => {
    const error = new DescriptionError('DESCRIPTION_REFUSED', location, message);
    failures.refused = error;
    throw error;
  };
  try {
    const result = await $RefParser.dereference(base, doc, {
      mutateInputSchema: true,
      resolve: {
        // Every ref goes through our two readers; the library's own file and http readers are off.
        file: false,
        http: false,
        localFiles: {
          order: 2,
          canRead: (file: RefFile) => !HTTP_URL.test(file.url),
          read: async (file: RefFile) => {
            // A description fetched over the network must not read local files.
            if (remote) {
              failures.blocked = file.url;
              throw new Error(`refusing to read ${file.url}`);
            }
            try {
              return await readLocalFile(toPath(file.url), policy, refRoots);
            } catch (error) {
              if (!(error instanceof LocalReadError)) throw error;
              if (error.refused) return refuse(`${refSite(file, location)}: $ref "${refText(file)}" is refused: ${error.reason}`);
              failures.unreadable = { url: file.url, reason: error.reason };
              throw error;
            }
          },
        },
        pipeline: {
          order: 1,
          canRead: HTTP_URL,
          read: async (file: RefFile) => {
            const site = () => `${refSite(file, location)}: $ref "${refText(file)}"`;
            const refusal = remote ? remoteRefRefusal(file.url, location, policy.allowRefHosts) : undefined;
            if (refusal !== undefined) return refuse(`${site()} is refused: ${refusal}`);
            let fetched: FetchedRef;
            try {
              if (!fetchText) throw new Error('remote $refs need a fetcher, and none was given');
              fetched = await fetchText(file.url);
            } catch (error) {
              if (error instanceof RefFetchRefusedError) return refuse(`${site()} is refused: ${error.reason}`);
              failures.fetch = { url: file.url, error };
              throw error;
            }
            const text = typeof fetched === 'string' ? fetched : fetched.text;
            const finalUrl = typeof fetched === 'string' ? file.url : fetched.url;
            const redirected = remote && finalUrl !== file.url ? remoteRefRefusal(finalUrl, location, policy.allowRefHosts) : undefined;
            if (redirected !== undefined) return refuse(`${site()} is refused: it redirected to ${finalUrl}, and ${redirected}`);
            if (Buffer.byteLength(text, 'utf8') > policy.maxBytes) return refuse(`${site()} is refused: its target is larger than ${formatBytes(policy.maxBytes)}`);
            return text;
          },
        },
      },
      parse: {
        json: false,
        yaml: false,
        text: false,
        binary: false,
        // One parser for every referenced file, so YAML behaves the same everywhere and errors carry line:col.
        description: {
          order: 1,
          allowEmpty: false,
          canParse: true,
          parse: (file: { url: string; data: unknown }) => {
            try {
              const name = displayName(file.url);
              const data = parseText(asText(file.data), name);
              // The crawler reads every external ref it finds in a file: hide those it must not follow first.
              hideSkippedRefs(data, name, hidden);
              return data;
            } catch (error) {
              if (error instanceof DescriptionError) failures.parse = error;
              throw error;
            }
          },
        },
      },
      // `true` keeps a recursive parameter schema as a cyclic graph; `ignore` would leave any
      // $ref whose target contains a cycle unresolved, parameters and bodies included.
      dereference: { circular: true, excludedPathMatcher: skipsDereference },
    });
    restoreRefs(hidden);
    return result;
  } catch (err) {
    if (failures.refused) throw failures.refused;
    if (failures.parse?.code === 'DESCRIPTION_REFUSED') {
      throw new DescriptionError('DESCRIPTION_REFUSED', location, `${location}: a $ref target is refused: ${failures.parse.message}`, { cause: err });
    }
    throw new DescriptionError('DESCRIPTION_REF', location, refErrorMessage(err, location, failures), { cause: err });
  }
}

/**
 * Only what request building reads is dereferenced: `paths`, minus body and header schemas,
 * examples, callbacks, links and extensions. Large descriptions are mostly schemas, and
 * recursive schemas would otherwise become cyclic object graphs. Parameter schemas are kept.
 */
function skipsDereference(pathFromRoot: string): boolean {
  const pointer = pathFromRoot.slice(pathFromRoot.indexOf('#') + 1);
  const cut = pointer.lastIndexOf('/');
  const last = pointer.slice(cut + 1);
  if (cut === 0) return last !== 'paths';
  if (last === 'schema') return !ARRAY_INDEX.test(pointer.slice(pointer.lastIndexOf('/', cut - 1) + 1, cut));
  return SKIPPED_MEMBERS.has(last) || last.startsWith('x-');
}

/** Whether any object in `value` has a `$ref` key; iterative so deep documents cannot overflow the stack. */
export function containsRef(value: unknown): boolean {
  return someNode(value, (node) => node !== null && typeof node === 'object' && !Array.isArray(node) && Object.hasOwn(node, '$ref'));
}

/** A library URL of a local file as a path (the library keeps plain paths URL-encoded). */
function toPath(url: string): string {
  if (url.startsWith('file:')) return fileURLToPath(url);
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/** `file#pointer` of the object holding the ref. */
function refSite(file: RefFile, location: string): string {
  if (file.baseUrl === undefined) return location;
  const hash = file.baseUrl.indexOf('#');
  if (hash === -1) return displayName(file.baseUrl);
  return `${displayName(file.baseUrl.slice(0, hash))}${file.baseUrl.slice(hash)}`;
}

function refText(file: RefFile): string {
  return shortRef(`${file.reference ?? displayName(file.url)}${file.hash ?? ''}`);
}

function asText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return String(data);
}
