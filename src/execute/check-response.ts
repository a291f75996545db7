/**
 * Response checks (`--checks warn|fail`): a step's response compared with what its operation
 * declares in the description, as Redocly Respect does: the status (exact, `2XX`, `default`), the
 * content type (media type essence, `type/*` and `*\/*` ranges) and, for a JSON body, its schema.
 * Mismatches name a JSON pointer and a schema keyword, never a value from the body.
 */
import type { HttpResponse } from '../http/types.js';
import { isJsonMediaType, mediaTypeEssence } from '../openapi/media-type.js';
import { responseSchemaPointer } from '../openapi/response-schemas.js';
import type { OpenApiDescription, Operation } from '../openapi/types.js';
import type { ResponseCheck, ResponseMismatch } from '../observe/response-checks.js';
import type { ResponseValidators } from './response-validators.js';
import type { RunMemo } from '../plan/run-memo.js';

/** `--checks`: off, warn (the default; never changes a step's verdict) or fail (a mismatch fails the step). */
export type ChecksMode = 'off' | 'warn' | 'fail';

/** Mismatches listed per response; the rest are counted. */
export const MAX_MISMATCHES = 5;
/** A body larger than this is not checked against its schema (a note says so). */
export const MAX_CHECKED_BODY_BYTES = 1024 * 1024;

/**
 * Checks `response` against `operation` of `description`. Undefined when the operation declares
 * no responses (nothing to compare with). Never throws on what a server sends.
 */
export async function checkResponse(mode: 'warn' | 'fail', operation: Operation, description: OpenApiDescription | undefined, response: HttpResponse, validators: ResponseValidators): Promise<ResponseCheck | undefined> {
  const declared = operation.responses;
  if (declared === undefined || typeof declared !== 'object') return undefined;
  const opName = `${operation.method} ${operation.path}`;
  const check: ResponseCheck = { mode, against: opName, mismatches: [], more: 0, notes: [] };
  const status = statusKey(declared, response.status);
  if (status === undefined) {
    const list = Object.keys(declared).join(', ');
    add(check, { check: 'status', message: `response status ${response.status} is not declared (declared: ${list})` });
    return check;
  }
  check.against = `${opName} ${status}`;
  const types = Array.isArray(declared[status]) ? declared[status] : [];
  // A response that declares no content: nothing to compare the body with.
  if (types.length === 0) return check;
  const header = response.headers['content-type'];
  const contentType = Array.isArray(header) ? header[0] : header;
  const size = response.bytes?.length ?? bodySize(response.body);
  if (contentType === undefined || contentType.trim() === '') {
    if (size > 0) add(check, { check: 'contentType', message: `response has no content type (declared: ${types.join(', ')})` });
    return check;
  }
  const essence = mediaTypeEssence(contentType);
  const type = declaredType(types, essence);
  if (type === undefined) {
    add(check, { check: 'contentType', message: `response content type ${shorten(essence)} is not declared (declared: ${types.join(', ')})` });
    return check;
  }
  check.against = `${opName} ${status} ${type}`;
  // Only JSON bodies are checked against their schema, and only a body there is.
  if (!isJsonMediaType(essence) || size === 0) return check;
  if (size > MAX_CHECKED_BODY_BYTES) {
    check.notes.push(`response body not checked against its schema: ${size} bytes is over the ${MAX_CHECKED_BODY_BYTES / 1024 / 1024} MiB limit`);
    return check;
  }
  if (description === undefined) return check;
  if (typeof response.body === 'string' && !parsesAsJson(response)) {
    add(check, { check: 'schema', keyword: 'json', pointer: '', message: 'response body is not valid JSON' });
    return check;
  }
  const verdict = await validators.validate(description, responseSchemaPointer(operation, status, type), response.body);
  if (verdict === undefined) return check;
  if ('uncheckable' in verdict) {
    check.notes.push(`response body not checked against its schema: ${verdict.uncheckable}`);
    return check;
  }
  for (const error of verdict.errors) {
    add(check, { check: 'schema', pointer: error.pointer, keyword: error.keyword, message: `response body ${error.pointer === '' ? '' : `${shorten(error.pointer)} `}${error.message} (${error.keyword})` });
  }
  return check;
}

function add(check: ResponseCheck, mismatch: ResponseMismatch): void {
  if (check.mismatches.length < MAX_MISMATCHES) check.mismatches.push(mismatch);
  else check.more++;
}

/** The declared status key a status falls under: itself, its range (`2XX`), else `default`. */
function statusKey(declared: Record<string, string[]>, status: number): string | undefined {
  const exact = String(status);
  if (Object.hasOwn(declared, exact)) return exact;
  const range = Object.keys(declared).find((key) => key.length === 3 && key[0] === exact[0] && key.slice(1).toUpperCase() === 'XX');
  if (range !== undefined) return range;
  return Object.hasOwn(declared, 'default') ? 'default' : undefined;
}

/** The declared media type a response's matches: the same essence, else a `type/*` range, else `*\/*`. */
function declaredType(types: readonly string[], essence: string): string | undefined {
  const exact = types.find((type) => mediaTypeEssence(type) === essence);
  if (exact !== undefined) return exact;
  const major = essence.slice(0, essence.indexOf('/') + 1);
  return types.find((type) => major !== '' && mediaTypeEssence(type) === `${major}*`) ?? types.find((type) => mediaTypeEssence(type) === '*/*');
}

/** Whether the bytes of a body the pipeline kept as text are JSON after all (a JSON string value is parsed to a string too). */
function parsesAsJson(response: HttpResponse): boolean {
  if (response.bytes === undefined) return false;
  try {
    JSON.parse(response.bytes.toString('utf8').replace(/^\uFEFF/, ''));
    return true;
  } catch {
    return false;
  }
}

function bodySize(body: unknown): number {
  if (body === undefined || body === null) return 0;
  if (Buffer.isBuffer(body)) return body.length;
  return typeof body === 'string' ? Buffer.byteLength(body) : 1;
}

/** Server text in a message is cut: a content type or a pointer can be long. */
function shorten(text: string, max = 120): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Checks a step's response; undefined for a step it does not check. */
export type ResponseChecker = (step: { operation?: Operation; source?: { description: OpenApiDescription } }, response: HttpResponse) => Promise<ResponseCheck | undefined>;

/**
 * The response checker of one run in `mode` (its schema validators are compiled as responses
 * come). With a memo (`arazzo test`), the runs share one set of validators: each schema is
 * compiled once for the suite, not once a run.
 */
export async function createResponseChecker(mode: 'warn' | 'fail', memo?: RunMemo): Promise<ResponseChecker> {
  const { createResponseValidators } = await import('./response-validators.js');
  const validators = memo ? memo.get('response validators', createResponseValidators) : createResponseValidators();
  return async (step, response) => (step.operation === undefined ? undefined : checkResponse(mode, step.operation, step.source?.description, response, validators));
}
