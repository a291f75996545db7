/**
 * A step's `operationPath` (v2): `{$sourceDescriptions.<name>.url}#<json-pointer>`, the pointer
 * naming an operation `/paths/<path>/<method>` of that source. Read the same way by validation and
 * by the run, so both agree on what it names and say the same when it names nothing.
 */
import { parsePointer } from '../expressions/json-pointer.js';
import { didYouMean } from './suggest.js';

/** What an operationPath names: the source, and the path and method (lower case, as OpenAPI writes it) of an operation. */
export interface OperationPathTarget {
  source: string;
  path: string;
  method: string;
}

/** What a lookup needs of an operation (an OpenAPI `Operation` fits): its method and path. */
export interface PathAddressable {
  method?: string;
  path?: string;
}

/** Thrown by parseOperationPath: the operationPath is not of the form the v2 runner reads; the message says why. */
export class OperationPathSyntaxError extends Error {
  override name = 'OperationPathSyntaxError';
  constructor(
    message: string,
    /** The source, path and (decoded) pointer when the pointer names a path item (`/paths/<path>`) instead of one of its operations. */
    readonly pathItem?: { source: string; path: string; pointer: string },
  ) {
    super(message);
  }
}

const FORM = /^\{\$sourceDescriptions\.([^.{}]+)\.url\}#(.*)$/s;
const EXAMPLE = '{$sourceDescriptions.<name>.url}#/paths/~1pets~1{petId}/get';

/**
 * Reads an operationPath: the fragment is percent-decoded, then read as an RFC 6901 pointer (`~1`
 * is `/`, `~0` is `~`) that must be `/paths/<path>/<method>`. Throws OperationPathSyntaxError for
 * any other form, a malformed percent-escape or pointer.
 */
export function parseOperationPath(operationPath: string): OperationPathTarget {
  const form = FORM.exec(operationPath.trim());
  if (!form) throw new OperationPathSyntaxError(`operationPath must be written ${EXAMPLE}`);
  let fragment: string;
  try {
    fragment = decodeURIComponent(form[2]!);
  } catch {
    throw new OperationPathSyntaxError(`the fragment "#${form[2]}" has a malformed percent-escape`);
  }
  let tokens: string[];
  try {
    tokens = parsePointer(fragment);
  } catch (error) {
    throw new OperationPathSyntaxError((error as Error).message);
  }
  if (tokens.length === 2 && tokens[0] === 'paths') {
    throw new OperationPathSyntaxError(`the pointer "${fragment}" names a path item, not an operation; end it with the method, e.g. ${fragment}/get`, { source: form[1]!, path: tokens[1]!, pointer: fragment });
  }
  if (tokens.length !== 3 || tokens[0] !== 'paths') {
    throw new OperationPathSyntaxError(`the pointer "${fragment}" must name an operation, /paths/<path>/<method> with "/" in the path written ~1 (e.g. ${EXAMPLE})`);
  }
  return { source: form[1]!, path: tokens[1]!, method: tokens[2]! };
}

/** The operation at `target`'s path and method among `operations`, or undefined. */
export function findByPath<T extends PathAddressable>(operations: Iterable<T>, target: OperationPathTarget): T | undefined {
  for (const operation of operations) {
    if (operation.path === target.path && operation.method?.toLowerCase() === target.method) return operation;
  }
  return undefined;
}

/** The methods (lower case) of the operations at `path`, in the order given. */
export function methodsAt(operations: Iterable<PathAddressable>, path: string): string[] {
  const methods: string[] = [];
  for (const operation of operations) if (operation.path === path && operation.method !== undefined) methods.push(operation.method.toLowerCase());
  return methods;
}

/**
 * Why `target` names no operation among `operations` (which findByPath found none in), with the
 * closest path or the methods the path has: `source "api" has no path "/pest" (did you mean "/pets"?)`.
 */
export function missingOperation(operations: Iterable<PathAddressable>, target: OperationPathTarget): string {
  const all = [...operations];
  const has = methodsAt(all, target.path);
  if (has.length === 0) return `source "${target.source}" has no path "${target.path}"${didYouMean(target.path, new Set(all.flatMap((op) => (op.path === undefined ? [] : [op.path]))))}`;
  return `path "${target.path}" of source "${target.source}" has no ${target.method} operation${didYouMean(target.method, has)}; it has ${has.join(', ')}`;
}
