import { resolve as resolvePath } from 'node:path';
import { DescriptionError } from './errors.js';
import { parseText } from './parse-text.js';
import { displayName, refErrorMessage, type RefFailures } from './ref-error-message.js';

export interface DereferenceOptions {
  /** Fetches http(s) `$ref` targets; when absent such refs fail with DESCRIPTION_REF. */
  fetchText?: (url: string) => Promise<string>;
}

const HTTP_URL = /^https?:\/\//i;
const ARRAY_INDEX = /^\d+$/;
/** Members whose contents a request never needs; examples may even hold literal `$ref` data. */
const SKIPPED_MEMBERS: ReadonlySet<string> = new Set(['example', 'examples', 'callbacks', 'links']);

/**
 * Replaces the `$ref`s that request building reads (in place) by their targets, local or in
 * other files or URLs, resolved against `location`. Body and header schemas keep their `$ref`s.
 * Throws DescriptionError DESCRIPTION_REF when a target cannot be read, parsed or found.
 */
export async function dereference(doc: object, location: string, options: DereferenceOptions): Promise<object> {
  // The library is only loaded for documents that need it, to keep start-up fast.
  const { $RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const remote = HTTP_URL.test(location);
  const base = remote || location.startsWith('file:') ? location : resolvePath(location);
  const fetchText = options.fetchText;
  // The library flattens plugin errors into its own messages; keep the originals for ours.
  const failures: RefFailures = {};
  const refuseLocal = (file: { url: string }): never => {
    failures.blocked = file.url;
    throw new Error(`refusing to read ${file.url}`);
  };
  try {
    return await $RefParser.dereference(base, doc, {
      mutateInputSchema: true,
      resolve: {
        // Remote refs go through the caller's fetcher (the request pipeline), never the library's own client.
        http: false,
        // A description fetched over the network must not read local files.
        ...(remote ? { file: false, localFiles: { order: 2, canRead: (file: { url: string }) => !HTTP_URL.test(file.url), read: refuseLocal } } : {}),
        pipeline: {
          order: 1,
          canRead: HTTP_URL,
          read: async (file: { url: string }) => {
            try {
              if (!fetchText) throw new Error('remote $refs need a fetcher, and none was given');
              return await fetchText(file.url);
            } catch (error) {
              failures.fetch = { url: file.url, error };
              throw error;
            }
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
              return parseText(asText(file.data), displayName(file.url));
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
  } catch (err) {
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
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
      continue;
    }
    if (Object.hasOwn(item, '$ref')) return true;
    for (const child of Object.values(item)) stack.push(child);
  }
  return false;
}

function asText(data: unknown): string {
  if (typeof data === 'string') return data;
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return String(data);
}
